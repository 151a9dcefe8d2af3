/* maps.c's inside, for its tests: the kinds of network address. */
#ifndef AGENT_MAPS_INT_H
#define AGENT_MAPS_INT_H

struct sockaddr;

enum agent_addr {
  AGENT_ADDR_PUBLIC,
  AGENT_ADDR_LOOPBACK,   /* 127/8, 0/8, ::1, :: */
  AGENT_ADDR_PRIVATE,    /* 10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7 */
  AGENT_ADDR_LINK_LOCAL, /* 169.254/16, fe80::/10 */
};
/* The kind of an IPv4 or IPv6 address (a v4-mapped v6 one as v4). */
int agent_addr_kind(const struct sockaddr *sa);

#endif
