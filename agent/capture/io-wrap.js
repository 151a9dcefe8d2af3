/* zamcap's storage wrapper (agent/capture/io.c), run by
 * Page.addScriptToEvaluateOnNewDocument before any script of the page, in
 * every frame of an I/O run. It wraps the functions that write to storage
 * or send beside the network stack: Storage.prototype.setItem
 * (localStorage, sessionStorage), IDBObjectStore.prototype.put and add,
 * Cache.prototype.put, the document.cookie setter, navigator.sendBeacon
 * and WebSocket.prototype.send. Each write that succeeds is told to
 * zamcap by the real console.trace, whose stack DevTools takes with the
 * message (Runtime.consoleAPICalled): the token, what was written, its
 * bytes and its key, store or URL (never the value).
 *
 * Invisible to the page: each wrapper has the name, length and
 * toString() of the function it replaces, is no constructor, and holds
 * its own copies of everything it calls, taken before the page ran, so
 * that a page that replaces, freezes or deletes a builtin later changes
 * nothing here; a page that replaces a wrapped function replaces the
 * wrapper (writes through its own code are then counted only if it calls
 * the wrapper). The value written is never converted twice: a value that
 * is not a string is converted once, here, in the order the builtin
 * would, and the string passed on. */
(function (TOKEN) {
  'use strict';
  const O = Object, R = Reflect;
  const apply = R.apply, defProp = O.defineProperty, getDesc = O.getOwnPropertyDescriptor;
  const getProto = O.getPrototypeOf, ownKeys = R.ownKeys;
  const WM = WeakMap, wmGet = WM.prototype.get, wmSet = WM.prototype.set;
  const fnToString = Function.prototype.toString;
  const con = console, trace = con.trace;
  const strSlice = String.prototype.slice, strIndex = String.prototype.indexOf;
  const charCode = String.prototype.charCodeAt;
  const isView = ArrayBuffer.isView;
  const getter = (proto, name) => {
    const d = proto && getDesc(proto, name);
    return d && typeof d.get === 'function' ? d.get : null;
  };
  const abLen = getter(ArrayBuffer.prototype, 'byteLength');
  const taLen = getter(getProto(Uint8Array.prototype), 'byteLength');
  const dvLen = getter(typeof DataView === 'function' && DataView.prototype, 'byteLength');
  const blobSize = getter(typeof Blob === 'function' && Blob.prototype, 'size');
  const storeName = getter(typeof IDBObjectStore === 'function' && IDBObjectStore.prototype, 'name');
  const reqUrl = getter(typeof Request === 'function' && Request.prototype, 'url');
  const resHeaders = getter(typeof Response === 'function' && Response.prototype, 'headers');
  const hdrGet = typeof Headers === 'function' ? Headers.prototype.get : null;
  const wsUrl = getter(typeof WebSocket === 'function' && WebSocket.prototype, 'url');
  const lsGet = getter(globalThis, 'localStorage') || getter(getProto(globalThis), 'localStorage');
  const shown = new WM(); /* wrapper -> the builtin it shows as */

  /* Our frames are the top two of every stack zamcap reads: note and the
   * wrapper. */
  function note(kind, bytes, what) {
    apply(trace, con, [TOKEN, kind, bytes, what]);
  }

  const cut = (s) => (s.length > 200 ? apply(strSlice, s, [0, 200]) : s);
  const tryCall = (f, self, args, dflt) => {
    if (!f) return dflt;
    try {
      return apply(f, self, args);
    } catch (e) {
      return dflt;
    }
  };

  /* UTF-8 bytes of a string, as the network carries it. */
  function utf8(s) {
    let n = 0;
    for (let i = 0; i < s.length; i++) {
      const c = apply(charCode, s, [i]);
      n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xdc00 ? 2 : 3;
    }
    return n;
  }

  /* The bytes of binary data (ArrayBuffer, a view, a Blob); -1 if it is
   * none. */
  function binary(v) {
    if (v === null || typeof v !== 'object') return -1;
    let n = tryCall(abLen, v, [], -1);
    if (n < 0 && isView(v)) n = tryCall(taLen, v, [], tryCall(dvLen, v, [], -1));
    if (n < 0) n = tryCall(blobSize, v, [], -1);
    return n;
  }

  /* An estimate of what IndexedDB stores for a value: strings at two
   * bytes a character, numbers eight, binary data its bytes, and objects
   * and arrays their own data properties (never a getter), walked at most
   * 10000 values deep. */
  function sizeOf(v) {
    const stack = [v];
    let sp = 1, n = 0, budget = 10000;
    while (sp && budget-- > 0) {
      const x = stack[--sp];
      stack[sp] = undefined;
      const t = typeof x;
      if (t === 'string') n += 2 * x.length;
      else if (t === 'number' || t === 'bigint') n += 8;
      else if (t !== 'object' || x === null) n += 1;
      else {
        const b = binary(x);
        if (b >= 0) {
          n += b;
          continue;
        }
        let keys;
        try {
          keys = ownKeys(x);
        } catch (e) {
          continue;
        }
        for (let i = 0; i < keys.length && sp < 10000; i++) {
          const k = keys[i];
          let d;
          try {
            d = getDesc(x, k);
          } catch (e) {
            d = undefined;
          }
          if (!d || !('value' in d)) continue;
          if (typeof k === 'string') n += 2 * k.length;
          stack[sp++] = d.value;
        }
      }
    }
    return n;
  }

  /* w shows as orig: its name, length and source text. */
  function mimic(w, orig) {
    for (const k of ['length', 'name']) {
      const d = getDesc(orig, k);
      if (d) defProp(w, k, d);
    }
    apply(wmSet, shown, [w, orig]);
    return w;
  }

  /* Each replacement on its own: one that fails leaves the others. */
  let failed = 0;
  function replaceMethod(proto, name, make) {
    try {
      const d = proto && getDesc(proto, name);
      if (!d || typeof d.value !== 'function' || !(d.writable || d.configurable)) return;
      const w = mimic(make(d.value), d.value);
      defProp(proto, name, {value: w, writable: d.writable, enumerable: d.enumerable,
                            configurable: d.configurable});
    } catch (e) {
      failed++;
    }
  }

  /* Function.prototype.toString first: it shows each wrapper, and
   * itself, as the builtin. */
  replaceMethod(Function.prototype, 'toString', () => ({
    toString() {
      const o = apply(wmGet, shown, [this]);
      return apply(fnToString, o === undefined ? this : o, []);
    },
  }).toString);

  const area = (self) => (lsGet && tryCall(lsGet, globalThis, [], null) === self
                          ? 'localStorage.setItem' : 'sessionStorage.setItem');
  replaceMethod(typeof Storage === 'function' && Storage.prototype, 'setItem', (orig) => ({
    setItem(key, value) {
      if (arguments.length < 2) return apply(orig, this, arguments);
      const k = typeof key === 'string' ? key : `${key}`;
      const v = typeof value === 'string' ? value : `${value}`;
      const r = apply(orig, this, [k, v]);
      note(area(this), 2 * (k.length + v.length), cut(k));
      return r;
    },
  }).setItem);

  for (const m of ['put', 'add']) {
    replaceMethod(typeof IDBObjectStore === 'function' && IDBObjectStore.prototype, m,
                  (orig) => ({
      [m](value) {
        const r = apply(orig, this, arguments);
        note('indexedDB.' + m, sizeOf(value), cut(`${tryCall(storeName, this, [], '')}`));
        return r;
      },
    })[m]);
  }

  replaceMethod(typeof Cache === 'function' && Cache.prototype, 'put', (orig) => ({
    put(request, response) {
      const r = apply(orig, this, arguments);
      const h = tryCall(resHeaders, response, [], null);
      const len = +tryCall(hdrGet, h, ['content-length'], 0) || 0;
      const u = typeof request === 'string' ? request : tryCall(reqUrl, request, [], '');
      note('Cache.put', len, cut(`${u}`));
      return r;
    },
  }).put);

  const cookie = typeof Document === 'function' && getDesc(Document.prototype, 'cookie');
  if (cookie && cookie.set && cookie.configurable) try {
    const set = cookie.set;
    const w = mimic(getDesc({
      set cookie(value) {
        const v = typeof value === 'string' ? value : `${value}`;
        apply(set, this, [v]);
        const eq = apply(strIndex, v, ['=']);
        note('document.cookie', utf8(v), cut(eq < 0 ? v : apply(strSlice, v, [0, eq])));
      },
    }, 'cookie').set, set);
    defProp(Document.prototype, 'cookie', {get: cookie.get, set: w,
                                           enumerable: cookie.enumerable,
                                           configurable: true});
  } catch (e) {
    failed++;
  }

  const dataBytes = (d) => {
    if (d === undefined || d === null) return 0;
    if (typeof d === 'string') return utf8(d);
    const b = binary(d);
    return b >= 0 ? b : 0;
  };
  replaceMethod(typeof Navigator === 'function' && Navigator.prototype, 'sendBeacon',
                (orig) => ({
    sendBeacon(url, data) {
      const r = apply(orig, this, arguments);
      if (r) note('navigator.sendBeacon', dataBytes(data), typeof url === 'string' ? cut(url) : '');
      return r;
    },
  }).sendBeacon);

  replaceMethod(typeof WebSocket === 'function' && WebSocket.prototype, 'send', (orig) => ({
    send(data) {
      const r = apply(orig, this, arguments);
      note('WebSocket.send', dataBytes(data), cut(`${tryCall(wsUrl, this, [], '')}`));
      return r;
    },
  }).send);

  /* This frame is wrapped (with the replacements that failed). */
  note('(wrapped)', failed, '');
})
