/* Fuzzes the source-map decoder and the naming rule
 * (analysis/smap/sourcemap.c): bad base64, huge and negative deltas, sections
 * nested and out of order, overlong lines. The input is the map; after a
 * successful parse, every segment's neighbourhood is looked up and resolved
 * against a generated line made of the input itself, so that the rule's
 * byte/UTF-16 walk and its identifier search meet arbitrary text; a map
 * with "sourcesContent" meets the reading of names from original text. */
#include <stdlib.h>
#include <string.h>

#include "ana.h"
#include "fuzz.h"
#include "smap/smap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  struct ana_smap *m = NULL;
  if (ana_smap_parse((const char *)data, size, "http://h/a/b.js.map", &m))
    return 0;
  struct ana_smap_pos p;
  const char *text = (const char *)data;
  static const char *const names[] = {"", "a", "Xe", "constructor"};
  for (uint32_t line = 0; line < 4; line++)
    for (uint32_t col = 0; col < 64; col += 3) {
      if (ana_smap_lookup(m, line, col, &p) && p.source) (void)strlen(p.source);
      for (size_t k = 0; k < 4; k++) {
        int ascii = k & 1;
        if (ana_smap_resolve(m, text, size, ascii, names[k], line, col, &p) &&
            p.name)
          (void)strlen(p.name);
        ana_smap_resolve(m, NULL, 0, 1, names[k], line, col, &p);
      }
    }
  (void)ana_smap_segments(m);
  size_t dropped;
  (void)ana_smap_texts(m, &dropped);
  ana_smap_free(m);
  return 0;
}
