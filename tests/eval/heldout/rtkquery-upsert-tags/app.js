/* Product catalog: the catalog is listed page by page; each "Load next
 * page" click takes the next page of products from the (simulated, seeded)
 * server and, as RTK Query's docs suggest for list endpoints, seeds the
 * per-product cache with api.util.upsertQueryEntries, one entry per
 * product for the getProduct endpoint (which provides a {type: 'Product',
 * id} tag), so that product pages open from the cache. The page then reads
 * a few entries back through the endpoint's selector and shows a summary.
 * The products come from a fixed seed, the same on every load.
 * A real regression for zamcap's accuracy experiment (NOTE.md): see there. */
import { configureStore } from '@reduxjs/toolkit';
import { createApi, fakeBaseQuery } from '@reduxjs/toolkit/query';

const PAGE_SIZE = 300;
const CATEGORIES = ['garden', 'kitchen', 'tools', 'toys', 'books', 'office', 'sports', 'audio'];
const WORDS = ['steel', 'oak', 'compact', 'deluxe', 'travel', 'classic', 'smart', 'mini', 'pro', 'eco'];

/* a multiply-with-carry generator with a fixed seed */
function makeMwc(seed) {
  let z = seed >>> 0, w = 521288629;
  return function next() {
    z = (36969 * (z & 65535) + (z >>> 16)) >>> 0;
    w = (18000 * (w & 65535) + (w >>> 16)) >>> 0;
    return (((z << 16) + w) >>> 0) / 4294967296;
  };
}

function makeProduct(rnd, id) {
  const name = WORDS[Math.floor(rnd() * WORDS.length)] + ' ' + WORDS[Math.floor(rnd() * WORDS.length)] +
    ' ' + CATEGORIES[id % CATEGORIES.length];
  return {
    id: 'p' + id,
    name: name,
    category: CATEGORIES[id % CATEGORIES.length],
    price: Math.round(rnd() * 20000) / 100,
    stock: Math.floor(rnd() * 500),
    rating: Math.round(rnd() * 50) / 10,
  };
}

/* the "server": page n of the catalog */
function fetchCatalogPage(page) {
  const rnd = makeMwc(7919 * (page + 1));
  const products = [];
  for (let i = 0; i < PAGE_SIZE; i++) products.push(makeProduct(rnd, page * PAGE_SIZE + i));
  return products;
}

function productQuery(id) {
  return {data: null, id: id};
}

const api = createApi({
  reducerPath: 'catalogApi',
  baseQuery: fakeBaseQuery(),
  tagTypes: ['Product', 'Page'],
  endpoints: function defineEndpoints(build) {
    return {
      getProduct: build.query({
        queryFn: productQuery,
        providesTags: function productTags(result, error, id) { return [{type: 'Product', id: id}]; },
      }),
    };
  },
});

const store = configureStore({
  reducer: {[api.reducerPath]: api.reducer},
  middleware: function middleware(getDefault) { return getDefault().concat(api.middleware); },
});

const state = {page: 0};

function toCacheEntries(products) {
  return products.map(function toEntry(p) {
    return {endpointName: 'getProduct', arg: p.id, value: p};
  });
}

function seedProductCache(products) {
  store.dispatch(api.util.upsertQueryEntries(toCacheEntries(products)));
}

function summarise(products) {
  const root = store.getState();
  const first = api.endpoints.getProduct.select(products[0].id)(root);
  const last = api.endpoints.getProduct.select(products[products.length - 1].id)(root);
  const cached = Object.keys(root[api.reducerPath].queries).length;
  return {cached: cached, first: first.data.name, last: last.data.name};
}

function renderRow(page, count, s) {
  const tr = document.createElement('tr');
  for (const v of [page + 1, count, s.cached, s.first, s.last]) {
    const td = document.createElement('td');
    td.textContent = String(v);
    tr.appendChild(td);
  }
  document.getElementById('pages').appendChild(tr);
}

function loadNextPage() {
  const t0 = performance.now();
  const products = fetchCatalogPage(state.page);
  seedProductCache(products);
  const s = summarise(products);
  renderRow(state.page, products.length, s);
  state.page++;
  document.getElementById('status').textContent =
    'page ' + state.page + ' in ' + Math.round(performance.now() - t0) + ' ms';
  document.body.dataset.loaded = String(state.page);
}

document.getElementById('load').addEventListener('click', loadNextPage);
document.body.dataset.ready = '1';
