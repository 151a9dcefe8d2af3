/* Private to analysis/report/: report.html's style sheet and script,
 * report.css and report.js byte for byte, embedded at build time
 * (embed.cmake writes their definitions into a C file in the build
 * folder). Static data, owned by no one; not NUL-terminated. */
#ifndef ANA_HTML_INT_H
#define ANA_HTML_INT_H

#include <stddef.h>

extern const unsigned char ana__html_css[];
extern const size_t ana__html_css_len;
extern const unsigned char ana__html_js[];
extern const size_t ana__html_js_len;

#endif
