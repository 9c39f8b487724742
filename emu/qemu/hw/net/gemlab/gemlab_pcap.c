/*
 * gemlab_pcap.c - capture of what crossed a gemlab wire, as pcapng.
 *
 * Every frame the wire hands back is written with its direction in the
 * EPB flags (inbound = towards the GEM) and, when it did not arrive
 * intact, the CRC-error flag bit and a comment ("dropped: link down",
 * "fcs error: corrupt", ...).  Frames the wire refused at send time are
 * written at that time with a "dropped:" comment.  The pcapng blocks are
 * written by the model library (models/src/pcapng.c, gemlab/pcapng.h).
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/log.h"

#include "gemlab_internal.h"

/*
 * An open capture file.  -global gemlab-link.pcap=PATH gives both GEMs
 * the same path, and the file is created exclusively, so devices naming
 * the same path share one GemlabPcap (one FILE, one offset: their
 * records interleave intact).  Only touched under the BQL.
 */
struct GemlabPcap {
    char *path;
    FILE *f;
    unsigned refs;
    struct gl_pcapng w;          /* the writer: bytes written, cap state */
};

static GSList *gemlab_pcaps;

void gemlab_pcap_close(GemlabLink *g)
{
    GemlabPcap *pc = g->pcap;

    g->pcap = NULL;
    if (pc && --pc->refs == 0) {
        fclose(pc->f);
        gemlab_pcaps = g_slist_remove(gemlab_pcaps, pc);
        g_free(pc->path);
        g_free(pc);
    }
}

void gemlab_pcap_open(GemlabLink *g, Error **errp)
{
    struct gl_err err;
    GemlabPcap *pc;
    GSList *l;
    FILE *f = NULL;
    int fd;

    gemlab_pcap_close(g);
    if (!g->pcap_path || !*g->pcap_path) {
        return;
    }
    for (l = gemlab_pcaps; l; l = l->next) {
        pc = l->data;
        if (!strcmp(pc->path, g->pcap_path)) {
            pc->refs++;
            g->pcap = pc;
            return;
        }
    }
    /*
     * docs/SECURITY.md Q7: a new file only (O_EXCL, which also refuses a
     * symlink at the path, open(2)), never one that exists: any QMP
     * client can set this property, and QEMU may run as root (tap mode).
     */
    fd = open(g->pcap_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
              O_CLOEXEC, 0600);
    if (fd >= 0) {
        f = fdopen(fd, "wb");
        if (!f) {
            close(fd);
        }
    }
    if (!f) {
        error_setg_errno(errp, errno, "gemlab-link.pcap: cannot create '%s' "
                         "(it must not exist yet; symlinks are refused)",
                         g->pcap_path);
        return;
    }
    pc = g_new0(GemlabPcap, 1);
    pc->path = g_strdup(g->pcap_path);
    pc->f = f;
    pc->refs = 1;
    gemlab_pcaps = g_slist_prepend(gemlab_pcaps, pc);
    g->pcap = pc;
    /* SHB + IDB (Ethernet, snaplen pcap-snaplen, if_tsresol 9: ns); the
     * snaplen is the opening device's for the file's life (one IDB) */
    if (gl_pcapng_start(&pc->w, f, g->pcap_max_bytes, g->pcap_snaplen,
                        &err)) {
        qemu_log_mask(LOG_UNIMP, "cadence_gem: %s\n", err.msg);
    }
}

void gemlab_pcap_frame(GemlabLink *g, uint64_t t_ns, bool inbound,
                       const GemlabFrame *f, bool bad_fcs,
                       const char *comment)
{
    GemlabPcap *pc = g->pcap;
    struct gl_err err;
    bool was_full;
    int rc;

    if (!pc) {
        return;
    }
    /* the cap is this device's pcap-max-bytes, read at every frame */
    pc->w.max_bytes = g->pcap_max_bytes;
    was_full = pc->w.full;
    rc = gl_pcapng_frame(&pc->w, t_ns, inbound, f->data, f->len, bad_fcs,
                         comment, &err);
    if (rc == -ENOSPC) {
        /* full: the file stays a valid pcapng, later frames are left out */
        if (!was_full) {
            qemu_log_mask(LOG_UNIMP, "cadence_gem: pcap reached "
                          "pcap-max-bytes (%" PRIu64 "): no more frames\n",
                          g->pcap_max_bytes);
        }
    } else if (rc) {
        qemu_log_mask(LOG_UNIMP, "cadence_gem: %s\n", err.msg);
    }
}
