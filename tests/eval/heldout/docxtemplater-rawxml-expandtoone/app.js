/* Contract builder: three contract templates (seeded, the same on every
 * load), each a Word document.xml whose clauses alternate between plain
 * paragraphs with simple {placeholders} and whole-paragraph {@raw} tags that
 * receive ready-made WordprocessingML (formatted clause blocks). Each Build
 * button zips one template with PizZip, renders it with docxtemplater and
 * shows a short preview of the result.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const KINDS = ['Lease', 'Supply', 'Services'];
const CLAUSES = 2000;   /* paragraphs per template; every other one is a {@raw} tag */
const BLOCKS = 9;       /* distinct raw clause blocks */
const FIELDS = 6;       /* distinct simple placeholders */

const VOCAB = ['party', 'term', 'notice', 'payment', 'the', 'a', 'of', 'shall',
  'supplier', 'customer', 'liability', 'and', 'to', 'within', 'days', 'invoice',
  'in', 'for', 'termination', 'renewal', 'schedule', 'with', 'written', 'audit',
  'premises', 'is', 'on', 'deposit', 'owner', 'deadline', 'risk', 'service'];

const CONTENT_TYPES = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
  '</Types>';

const state = {shown: 0};

function seededRandom(seed) {
  let s = seed >>> 0;
  return function nextRandom() {
    s = (s + 0x6D2B79F5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function words(rand, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(VOCAB[Math.floor(rand() * VOCAB.length)]);
  return out.join(' ');
}

function run(text, bold) {
  return '<w:r>' + (bold ? '<w:rPr><w:b/></w:rPr>' : '') +
    '<w:t xml:space="preserve">' + text + '</w:t></w:r>';
}

function makeTemplate(index) {
  const rand = seededRandom(7100 + index * 31);
  const paras = [];
  for (let i = 0; i < CLAUSES; i++) {
    if (i % 2 === 1) {
      paras.push('<w:p>' + run('{@block' + Math.floor(rand() * BLOCKS) + '}') + '</w:p>');
    } else {
      paras.push('<w:p>' + run((i / 2 + 1) + '. ', true) +
        run(words(rand, 6) + ' {field' + Math.floor(rand() * FIELDS) + '} ' + words(rand, 5)) +
        '</w:p>');
    }
  }
  return '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
    '<w:body>' + paras.join('') + '<w:sectPr/></w:body></w:document>';
}

function makeData(index) {
  const rand = seededRandom(900 + index * 13);
  const data = {};
  for (let b = 0; b < BLOCKS; b++) {
    data['block' + b] = '<w:p><w:pPr><w:ind w:left="360"/></w:pPr>' +
      run(KINDS[index] + ' clause ' + (b + 1) + ': ', true) + run(words(rand, 12)) + '</w:p>';
  }
  for (let f = 0; f < FIELDS; f++) data['field' + f] = words(rand, 2);
  return data;
}

function checksum(text) {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return (h >>> 0).toString(16);
}

function build(index) {
  const t0 = performance.now();
  const zip = new PizZip();
  zip.file('[Content_Types].xml', CONTENT_TYPES);
  zip.file('word/document.xml', makeTemplate(index));
  const doc = new docxtemplater();
  doc.loadZip(zip);
  doc.setData(makeData(index));
  doc.render();
  const xml = doc.getZip().file('word/document.xml').asText();
  const paragraphs = xml.split('<w:p>').length - 1;
  state.shown++;
  document.getElementById('preview').textContent =
    xml.slice(0, 4000).replace(/<[^>]+>/g, ' ').replace(/ +/g, ' ');
  document.getElementById('status').textContent =
    KINDS[index] + ': ' + paragraphs + ' paragraphs, ' + xml.length + ' chars, sum ' +
    checksum(xml) + ', ' + Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

for (let i = 0; i < KINDS.length; i++) {
  document.getElementById('build' + i).addEventListener('click', function onBuild() {
    build(i);
  });
}
document.body.dataset.ready = '1';
