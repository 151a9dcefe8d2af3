/* Tests of the zc core: errors and exit codes, buffers with a ceiling,
 * arena, grow, URLs. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "zc-url.h"
#include "zc.h"

static void test_errors(void) {
  ZT_INT(zc_fail(ZC_E_IO, "%s: broken at byte %d", "f.json", 12), ZC_E_IO);
  ZT_STR(zc_errmsg(), "f.json: broken at byte 12");
  ZT_STR(zc_strerror(ZC_E_TOOBIG), "too big");
}

static void test_buf_ceiling(void) {
  struct zc_buf b;
  zc_buf_init(&b, 10);
  ZT_INT(zc_buf_add(&b, "hello", 5), ZC_OK);
  ZT_INT(zc_buf_printf(&b, "%d", 1234), ZC_OK);
  ZT_STR(b.ptr, "hello1234");
  ZT_INT(zc_buf_add(&b, "xy", 2), ZC_E_TOOBIG); /* 11 > 10 */
  ZT_INT(b.len, 9);
  ZT_INT(zc_buf_addc(&b, '!'), ZC_OK);
  ZT_INT(zc_buf_addc(&b, '!'), ZC_E_TOOBIG);
  char *s = zc_buf_take(&b);
  ZT_STR(s, "hello1234!");
  ZT_INT(b.len, 0);
  free(s);
  zc_buf_init(&b, 1 << 20);
  char big[600];
  memset(big, 'a', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  ZT_INT(zc_buf_printf(&b, "<%s>", big), ZC_OK); /* past the small path */
  ZT_INT(b.len, 601);
  zc_buf_free(&b);
}

static void test_arena(void) {
  struct zc_arena *a = zc_arena_new();
  char *first = zc_arena_strndup(a, "abc", 3);
  for (int i = 0; i < 100000; i++) {
    unsigned char *p = zc_arena_alloc(a, 24);
    ZT_INT(((uintptr_t)p) % 8, 0);
    if (p[0] || p[23]) ZT_TRUE(0 && "arena memory is zeroed");
    p[0] = 1;
  }
  ZT_STR(first, "abc"); /* earlier objects survive new chunks */
  ZT_TRUE(zc_arena_bytes(a) >= 2400000);
  zc_arena_free(a);
  zc_arena_free(NULL);
}

static void test_grow(void) {
  int *v = NULL;
  size_t cap = 0;
  for (int i = 0; i < 1000; i++) {
    ZC_GROW(v, cap, (size_t)i + 1);
    v[i] = i;
  }
  ZT_TRUE(cap >= 1000);
  ZT_INT(v[999], 999);
  free(v);
}

/* Finds key in the table over keys[]; adds it when absent. */
static uint32_t htab_get(struct zc_htab *t, uint64_t *keys, uint32_t *n,
                         uint64_t key, uint64_t hash, int *added) {
  size_t pos = ZC_HTAB_START;
  uint32_t i;
  while (zc_htab_next(t, hash, &pos, &i))
    if (keys[i] == key) {
      *added = 0;
      return i;
    }
  keys[*n] = key;
  zc_htab_add(t, hash, pos, *n);
  *added = 1;
  return (*n)++;
}

static void test_htab(void) {
  enum { N = 50000 };
  uint64_t *keys = malloc(N * sizeof *keys);
  uint32_t n = 0;
  int added, all = 1;
  struct zc_htab t;
  zc_htab_init(&t, 0);
  /* Well-mixed hashes, then one hash shared by 300 keys and another that
   * differs only in bits the slot does not keep: equality is the
   * caller's, so each key is still found as itself. */
  for (uint64_t k = 0; k < 40000; k++)
    all &= htab_get(&t, keys, &n, k, zc_mix64(k), &added) == k && added;
  for (uint64_t k = 40000; k < 40300; k++)
    all &= htab_get(&t, keys, &n, k, 42, &added) == k && added;
  for (uint64_t k = 40300; k < 40400; k++)
    all &= htab_get(&t, keys, &n, k,
                    42ULL | (k - 40300 + 1) << 40 | (k - 40300 + 1) << 8,
                    &added) == k &&
           added;
  ZT_TRUE(all);
  ZT_INT(t.n, 40400);
  ZT_TRUE(t.cap >= 2 * t.n && (t.cap & (t.cap - 1)) == 0);
  /* Every key is found again after all the growing, and none twice. */
  for (uint64_t k = 0; k < 40400; k++) {
    uint64_t h = k < 40000 ? zc_mix64(k)
                 : k < 40300
                     ? 42
                     : 42ULL | (k - 40300 + 1) << 40 | (k - 40300 + 1) << 8;
    all &= htab_get(&t, keys, &n, k, h, &added) == k && !added;
  }
  ZT_TRUE(all);
  ZT_INT(n, 40400);
  /* Cleared, it is empty and usable. */
  zc_htab_clear(&t, 10);
  ZT_INT(t.n, 0);
  ZT_TRUE(t.cap <= 64); /* sized for what comes, not what was */
  n = 0;
  ZT_INT(htab_get(&t, keys, &n, 7, zc_mix64(7), &added), 0);
  ZT_INT(added, 1);
  zc_htab_free(&t);
  zc_htab_free(&t); /* freed (zeroed) twice is fine */
  free(keys);
}

/* zc_term_put's output, in a static buffer. */
static const char *term(const char *s, size_t n) {
  static char *buf;
  size_t len = 0;
  free(buf);
  buf = NULL;
  FILE *f = open_memstream(&buf, &len);
  zc_term_put(f, s, n);
  fclose(f);
  return buf;
}

/* Text for the terminal: controls, C1, bidi overrides and stray bytes
 * escaped, the rest of UTF-8 kept. */
static void test_term_text(void) {
  ZT_STR(term("a\033]0;x\a\r\n\tb", SIZE_MAX), "a\\e]0;x\\x07\\r\\n\\tb");
  ZT_STR(term("\xc2\x9b"
              "1m \xe2\x80\xae \x7f",
              SIZE_MAX),
         "\\u009B1m \\u202E \\x7F");
  /* not UTF-8: a lone continuation, a cut sequence, an overlong '/', a
   * surrogate; kept: é, €, 😀, a backslash */
  ZT_STR(term("\x80|\xe2\x82|\xc0\xaf|\xed\xa0\x80", SIZE_MAX),
         "\\x80|\\xE2\\x82|\\xC0\\xAF|\\xED\\xA0\\x80");
  ZT_STR(term("é€😀\\", SIZE_MAX), "é€😀\\");
  /* n bytes at most: a character cut by n is a stray byte */
  ZT_STR(term("ab\xc3\xa9", 3), "ab\\xC3");
  ZT_STR(term("x\033[2Jy\xff", SIZE_MAX), "x\\e[2Jy\\xFF");
}

/* A URL's secrets are found and masked wherever they recur. */
static void test_url_secrets(void) {
  ZT_INT(zc_url_secrets("https://me:p@ss:w@host:8/a?q=1&API_Key=k3y1&"
                        "Sig=abc;x=2#access_token=tk99&state=s"),
         1);
  ZT_INT(zc_url_secrets("http://host/?code=c0de&key=ab&keyboard=qwerty"), 0);
  char s[] = "me:p@ss:w k3y1 abc tk99 c0de qwerty ab s q=1 host";
  ZT_INT((int)zc_scrub(s), 6); /* the password lies in user:password */
  ZT_STR(s, "********* **** *** **** **** ****** ab s q=1 host");
  zc_secrets_clear();
  char t[] = "k3y1";
  ZT_INT((int)zc_scrub(t), 0);
  ZT_INT((int)zc_secret_maxlen(), 0);
}

/* Issue 26.6: a secret is masked in every form a browser or a tool writes
 * it back: as given, percent-decoded, percent-encoded. */
static void test_url_secret_forms(void) {
  ZT_INT(zc_url_secrets("http://admin:Mail@Pass4242@host/?token=T0k%7Ben%7D42"
                        "&x=1"),
         1);
  char s[] = "a Mail@Pass4242 b Mail%40Pass4242 c T0k{en}42 d T0k%7Ben%7D42 "
             "e admin:Mail@Pass4242 f x=1";
  zc_scrub(s);
  ZT_STR(s, "a ************* b *************** c ********* d ************* "
            "e ******************* f x=1");
  zc_secrets_clear();
  /* encodeURIComponent's form, and the query's own */
  ZT_INT(zc_url_secrets("http://u:p%20a%2Fss!@h/?auth=a+b%26c'd"), 1);
  char t[] = "p a/ss! p%20a%2Fss! p%20a/ss! a+b&c'd a%2Bb%26c'd a+b&c%27d";
  zc_scrub(t);
  ZT_STR(t, "******* *********** ********* ******* *********** *********");
  zc_secrets_clear();
}

/* Every error has its exit code, by stage (README, "Exit codes"). */
static void test_exit_table(void) {
  static const struct {
    enum zc_err e;
    int input, capture;
  } want[] = {
      {ZC_OK, 0, 0},        {ZC_E_IO, 2, 3},       {ZC_E_PARSE, 2, 3},
      {ZC_E_TOOBIG, 2, 3},  {ZC_E_TIMEOUT, 3, 3},  {ZC_E_USAGE, 2, 2},
      {ZC_E_NOMEM, 4, 4},   {ZC_E_INTERNAL, 4, 4}, {ZC_E_CDP, 3, 3},
      {ZC_E_BROWSER, 3, 3},
  };
  for (size_t i = 0; i < ZC_ARRAY_LEN(want); i++) {
    ZT_INT(zc_exit_for(want[i].e, ZC_STAGE_INPUT), want[i].input);
    ZT_INT(zc_exit_for(want[i].e, ZC_STAGE_CAPTURE), want[i].capture);
  }
  /* interrupted: 128 + the signal, SIGINT's when none was recorded */
  ZT_INT(zc_exit_for(ZC_E_INTERRUPTED, ZC_STAGE_INPUT), 130);
  zc_interrupted = 15;
  ZT_INT(zc_exit_for(ZC_E_INTERRUPTED, ZC_STAGE_CAPTURE), 143);
  zc_interrupted = 0;
  /* a code outside the enum is a bug, not a success */
  ZT_INT(zc_exit_for((enum zc_err)99, ZC_STAGE_INPUT), 4);
}

/* URLs split by libcurl; the origin as written; one host rule. */
static void test_url(void) {
  struct zc_url u;
  ZT_INT(zc_url_split("HTTP://me:pw@Example.com:8080/a/b?q=1#frag", &u), 0);
  ZT_STR(u.scheme, "http");
  ZT_STR(u.user, "me");
  ZT_STR(u.password, "pw");
  ZT_STR(u.host, "Example.com");
  ZT_STR(u.port, "8080");
  ZT_STR(u.path, "/a/b");
  ZT_STR(u.query, "q=1");
  ZT_STR(u.fragment, "frag");
  zc_url_clear(&u);
  ZT_INT(zc_url_split("http://h", &u), 0);
  ZT_STR(u.path, "/");
  ZT_TRUE(!u.port && !u.query && !u.user);
  zc_url_clear(&u);
  ZT_INT(zc_url_split("https://:443/x", &u), ZC_E_PARSE);
  ZT_STR(zc_errmsg(), "the URL has no host");
  ZT_TRUE(!u.host);
  ZT_INT(zc_url_split("http://h:99999/", &u), ZC_E_PARSE);
  ZT_HAS(zc_errmsg(), "not a URL libcurl can use (");
  zc_url_clear(&u); /* zeroed: a no-op */

  ZT_INT((int)zc_url_origin_len("http://localhost:3000/x?y"), 21);
  ZT_INT((int)zc_url_origin_len("https://u:p@h.example?q"), 21);
  ZT_INT((int)zc_url_origin_len("https://h.example#f"), 17);
  ZT_INT((int)zc_url_origin_len("http://h"), 8);
  ZT_INT((int)zc_url_origin_len("/relative"), 0);
  ZT_INT((int)zc_url_origin_len("about:blank"), 0);
  ZT_INT((int)zc_url_origin_len("ftp://h/x"), 0);
  ZT_INT((int)zc_url_origin_len("http://:80/"), 0);     /* no host */
  ZT_INT((int)zc_url_origin_len("http://h:99999/"), 0); /* no port */
  ZT_INT((int)zc_url_origin_len("http:/h/x"), 0);       /* not as written */
  ZT_INT((int)zc_url_origin_len("http:///x"), 0);

  static const struct {
    const char *url;
    enum zc_host k;
  } hosts[] = {
      {"http://localhost:3000/", ZC_HOST_LOOPBACK},
      {"http://LocalHost/", ZC_HOST_LOOPBACK},
      {"http://app.localhost/", ZC_HOST_LOOPBACK},
      {"http://127.0.0.1:9/", ZC_HOST_LOOPBACK},
      {"http://127.1/", ZC_HOST_LOOPBACK}, /* libcurl: 127.0.0.1 */
      {"http://0.0.0.0:8/", ZC_HOST_LOOPBACK},
      {"http://[::1]:8/", ZC_HOST_LOOPBACK},
      {"https://u:p@localhost/", ZC_HOST_LOOPBACK},
      {"http://frontend:3000/", ZC_HOST_LOCAL_NAME},
      {"http://127.evil.example/", ZC_HOST_OTHER},
      {"http://localhost.example/", ZC_HOST_OTHER},
      {"http://example.com/", ZC_HOST_OTHER},
      {"http://[2001:db8::1]/", ZC_HOST_OTHER},
      {"ftp://localhost/", ZC_HOST_OTHER},
      {"localhost:3000", ZC_HOST_OTHER},
  };
  for (size_t i = 0; i < ZC_ARRAY_LEN(hosts); i++)
    if (!ZT_INT((int)zc_url_host(hosts[i].url), (int)hosts[i].k))
      fprintf(stderr, "  url: %s\n", hosts[i].url);

  char shown[64];
  zc_url_shown("https://me:pw@h.example:8/up?token=t#f", shown, sizeof shown);
  ZT_STR(shown, "https://h.example:8/up?...");
  zc_url_shown("http://h", shown, sizeof shown);
  ZT_STR(shown, "http://h/");
  zc_url_shown("/login", shown, sizeof shown);
  ZT_STR(shown, "(a URL)");
  /* asking does not overwrite the message being reported */
  zc_fail(ZC_E_IO, "kept");
  ZT_INT((int)zc_url_origin_len("http://:1/"), 0);
  zc_url_shown("nope", shown, sizeof shown);
  ZT_STR(zc_errmsg(), "kept");
}

/* A message that wraps the last one (zc_fail(e, "x: %s", zc_errmsg()), the
 * way every layer adds what it knows) keeps it whole: issue 38's tracker
 * message read "tracker X: tracker X: 1:1/repos/..." when it was formatted
 * into its own buffer. */
static void test_errors_wrapped(void) {
  zc_fail(ZC_E_IO, "POST http://127.0.0.1:1/repos/a/b/issues: refused");
  ZT_INT(zc_fail(ZC_E_INTERRUPTED, "tracker %s: %s", "github:a/b", zc_errmsg()),
         ZC_E_INTERRUPTED);
  ZT_STR(zc_errmsg(), "tracker github:a/b: POST "
                      "http://127.0.0.1:1/repos/a/b/issues: refused");
  /* twice over, and the code stays the last one given */
  zc_fail(ZC_E_PARSE, "%s (%s)", zc_errmsg(), zc_errmsg());
  ZT_HAS(zc_errmsg(), "refused (tracker github:a/b: POST");
}

/* What a writer writes in pieces, a secret cut across two of them. */
static enum zc_err write_pieces(void *arg, FILE *f) {
  const char *const *v = arg;
  for (size_t i = 0; v[i]; i++)
    fputs(v[i], f);
  return ZC_OK;
}

/* Every document zamcap writes goes through zc_write_atomic, which masks
 * the registered secrets whatever the writer did (issue 38: bisect's own
 * reports carried every --builds URL's token): as given, cut across two
 * writes, and as JSON and HTML escape them. */
static void test_write_masked(void) {
  zc_secrets_clear();
  ZT_INT(zc_url_secrets("http://me:p%26ss%22w@h.example/?token=t0k3n-xyz"), 1);
  const char *pieces[] = {"build http://me:p%26ss%22w@h.example/?token=t0k",
                          "3n-xyz\n",
                          "json \"p&ss\\\"w\"\n",
                          "html p&amp;ss&quot;w\n",
                          "big ",
                          NULL,
                          NULL};
  char *big = zc_xmalloc(300001);
  memset(big, 'x', 300000);
  memcpy(big + 150000, "t0k3n-xyz", 9);
  big[300000] = '\0';
  pieces[5] = big;
  const char *path = zt_tmp("masked.txt");
  ZT_INT(zc_write_atomic(path, write_pieces, pieces), ZC_OK);
  char *got = zt_read(path);
  ZT_TRUE(got != NULL);
  ZT_TRUE(!strstr(got ? got : "", "t0k3n") && !strstr(got ? got : "", "p&ss"));
  ZT_TRUE(!strstr(got ? got : "", "p%26ss"));
  ZT_TRUE(!strstr(got ? got : "", "p&amp;ss&quot;w"));
  /* (no ZT_HAS: it would print the 300 KB) */
  ZT_TRUE(got && !strncmp(got, "build http://", 13));
  ZT_TRUE(strstr(got ? got : "", "@h.example/?token=*********\n") != NULL);
  size_t len = 0; /* masks keep the length */
  for (size_t i = 0; pieces[i]; i++)
    len += strlen(pieces[i]);
  ZT_INT(got ? strlen(got) : 0, len);
  free(got);
  free(big);
  zc_secrets_clear();
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"write_masked", test_write_masked},
      {"errors_wrapped", test_errors_wrapped},
      {"errors", test_errors},
      {"buf_ceiling", test_buf_ceiling},
      {"arena", test_arena},
      {"grow", test_grow},
      {"htab", test_htab},
      {"term_text", test_term_text},
      {"url_secrets", test_url_secrets},
      {"url_secret_forms", test_url_secret_forms},
      {"exit_table", test_exit_table},
      {"url", test_url},
  };
  return ZT_RUN(cases, argc, argv);
}
