/* PDF page index: three long PDF "catalogues" are generated in the page
 * (seeded, the same on every load), each with one flat Pages node whose Kids
 * array lists every page, as many generators write them. Each Index button
 * opens one catalogue with pdf.js (worker disabled, so the parser runs in
 * the page) and asks for every page with getPage, then lists the page sizes
 * by format. A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const CATALOGUES = ['A', 'B', 'C'];
const PAGES = [900, 900, 900];   /* pages per catalogue */
const SIZES = [[595, 842], [612, 792], [842, 595], [420, 595]];

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

/* A minimal PDF 1.4 file: catalog (1), one Pages node (2) with all pages as
 * Kids, one Page dict per page (3..n+2), a classic xref table. */
function buildCatalogue(index) {
  const rnd = seededRandom(1234 + index * 77);
  const n = PAGES[index];
  const objects = [];
  const kids = [];
  for (let i = 0; i < n; i++) kids.push((i + 3) + ' 0 R');
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push('<< /Type /Pages /Count ' + n + ' /Kids [' + kids.join(' ') + '] >>');
  for (let i = 0; i < n; i++) {
    const size = SIZES[Math.floor(rnd() * SIZES.length)];
    const rotate = rnd() < 0.1 ? 90 : 0;
    objects.push('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ' + size[0] + ' ' +
                 size[1] + '] /Rotate ' + rotate + ' >>');
  }
  let text = '%PDF-1.4\n';
  const offsets = [];
  for (let i = 0; i < objects.length; i++) {
    offsets.push(text.length);
    text += (i + 1) + ' 0 obj\n' + objects[i] + '\nendobj\n';
  }
  const xrefAt = text.length;
  text += 'xref\n0 ' + (objects.length + 1) + '\n0000000000 65535 f \n';
  for (const off of offsets) text += String(off).padStart(10, '0') + ' 00000 n \n';
  text += 'trailer\n<< /Size ' + (objects.length + 1) + ' /Root 1 0 R >>\nstartxref\n' +
          xrefAt + '\n%%EOF\n';
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

function summarisePages(name, pages) {
  const byFormat = new Map();
  let rotated = 0;
  for (const page of pages) {
    const view = page.view;
    const key = (view[2] - view[0]) + 'x' + (view[3] - view[1]);
    byFormat.set(key, (byFormat.get(key) || 0) + 1);
    if (page.rotate) rotated++;
  }
  const keys = Array.from(byFormat.keys()).sort();
  return 'Catalogue ' + name + ': ' + pages.length + ' pages, ' + rotated + ' rotated; ' +
         keys.map(k => k + ' x' + byFormat.get(k)).join(', ');
}

function indexCatalogue(index) {
  const data = buildCatalogue(index);
  document.getElementById('status').textContent = 'Indexing ' + CATALOGUES[index] + '...';
  return PDFJS.getDocument({data: data}).promise.then(function openPages(doc) {
    const requests = [];
    for (let i = 1; i <= doc.numPages; i++) requests.push(doc.getPage(i));
    return Promise.all(requests).then(function showPages(pages) {
      const line = summarisePages(CATALOGUES[index], pages);
      doc.destroy();
      const out = document.getElementById('out');
      out.textContent += line + '\n';
      document.getElementById('status').textContent = 'Done.';
      state.shown++;
      document.body.dataset.shown = String(state.shown);
    });
  });
}

function init() {
  PDFJS.disableWorker = true;
  PDFJS.verbosity = 0;
  CATALOGUES.forEach(function (name, i) {
    document.getElementById('open' + i).addEventListener('click', function onIndex() {
      indexCatalogue(i);
    });
  });
  document.body.dataset.ready = '1';
}

init();
