/* Transit data export: each city's network is kept as Leaflet layers
 * (routes as polylines, fare zones as polygons, stops as markers, built
 * from seeded coordinates, the same on every load, never drawn). Exporting a
 * city builds its layers and writes every layer out as GeoJSON and builds a text label for every stop, as a feed
 * exporter does. A held-out real regression for zamcap's accuracy
 * experiment (tests/eval/heldout/leaflet-formatnum/NOTE.md): Leaflet 1.5
 * rounds every coordinate through a string round trip in L.Util.formatNum
 * ('e+6' exponent strings) instead of multiplying by a power of ten. */
'use strict';

const CITIES = ['Aarhus', 'Bergen', 'Cork'];
const ROUTES = 12;
const ROUTE_POINTS = 3400;
const ZONES = 6;
const ZONE_POINTS = 5800;
const STOPS = 18000;
const LABELS = 18000;

const state = {cities: {}, exported: 0};

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

function randomPath(rand, lat, lng, count) {
  const pts = [];
  for (let i = 0; i < count; i++) {
    lat += (rand() - 0.5) * 0.002;
    lng += (rand() - 0.5) * 0.002;
    pts.push([lat, lng]);
  }
  return pts;
}

function makeCityData(index) {
  const rand = seededRandom(60 + index);
  const lat = 55 + index * 2, lng = 8 + index * 3;
  const data = {routes: [], zones: [], stops: []};
  for (let r = 0; r < ROUTES; r++) data.routes.push(randomPath(rand, lat, lng, ROUTE_POINTS));
  for (let z = 0; z < ZONES; z++) data.zones.push(randomPath(rand, lat, lng, ZONE_POINTS));
  for (let s = 0; s < STOPS; s++) data.stops.push([lat + (rand() - 0.5) * 0.2, lng + (rand() - 0.5) * 0.2]);
  return data;
}

function buildLayers(data) {
  return {routes: data.routes.map(function routeLayer(pts) { return L.polyline(pts); }),
          zones: data.zones.map(function zoneLayer(pts) { return L.polygon(pts); }),
          stops: data.stops.map(function stopLayer(p) { return L.marker(p); })};
}

function exportRoutes(city) {
  return city.routes.map(function routeFeature(line) { return line.toGeoJSON(); });
}

function exportZones(city) {
  return city.zones.map(function zoneFeature(poly) { return poly.toGeoJSON(); });
}

function exportStops(city) {
  return L.layerGroup(city.stops).toGeoJSON();
}

function stopLabels(city) {
  const labels = [];
  for (let i = 0; i < LABELS; i++) labels.push('stop ' + i + ' ' + city.stops[i].getLatLng().toString());
  return labels;
}

function onCityClick(event) {
  const name = event.target.dataset.city;
  if (!name) return;
  const city = buildLayers(state.cities[name]);
  const feed = {routes: exportRoutes(city), zones: exportZones(city), stops: exportStops(city),
                labels: stopLabels(city)};
  const text = JSON.stringify(feed);
  document.getElementById('preview').textContent = text.slice(0, 2000);
  document.getElementById('status').textContent = name + ': ' + text.length + ' characters of GeoJSON';
  state.exported++;
  document.body.dataset.exported = String(state.exported);
}

function main() {
  const nav = document.getElementById('cities');
  CITIES.forEach(function addCity(name, index) {
    state.cities[name] = makeCityData(index);
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = name;
    b.dataset.city = name;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onCityClick);
  document.body.dataset.ready = '1';
}

main();
