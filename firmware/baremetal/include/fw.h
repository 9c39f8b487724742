/* fw.h - what the platform exposes to built-in commands and apps beyond
 * shell.h: the network interface, the PHY and identification.
 * Machine-readable output is one line `@gemlab {json}` (FW_JSON_MARK);
 * glout.h (apps) is the full writer, the platform prints its few lines
 * itself with the same marker and the common fields "v","src","type". */
#ifndef GEMLAB_FW_H
#define GEMLAB_FW_H

#include <stdint.h>

#define FW_JSON_MARK   "@gemlab "
#define FW_JSON_HEAD(type) FW_JSON_MARK "{\"v\":1,\"src\":\"baremetal\",\"type\":\"" type "\""

struct netif;
struct phy;

struct netif *fw_netif(void);
struct phy *fw_phy(void);
const char *fw_version(void);
const char *fw_board(void);
/* Apply a new static IPv4 configuration (stops DHCP). 0 or -EINVAL. */
int fw_set_ip(const char *ip, const char *mask, const char *gw);
int fw_start_dhcp(void);
/* Keep the main loop from sleeping (WFI) after this iteration.  A poll hook
 * with more work to do right away (e.g. UDP pacing at high rates) calls it
 * each time; otherwise the loop sleeps until the next interrupt (1 kHz
 * tick, GEM, UART), so hooks run at least once per millisecond. */
void fw_keep_awake(void);

#endif
