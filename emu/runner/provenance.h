/*
 * provenance.h - what a run was built from, for results.json "versions"
 * (issue 9: reproducible runs, and the baseline's conditions).
 */
#ifndef GEMLAB_RUNNER_PROVENANCE_H
#define GEMLAB_RUNNER_PROVENANCE_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* Add to @versions (an object):
 *   qemu_build        the QEMU cache directory VER-KEY (emu/qemu/build.sh)
 *                     when @qemu lives in one, else ""
 *   qemu_patch        its KEY: the hash of the patch series + configure
 *                     options; for a 10.0 build "KEY/FULL", FULL the hash
 *                     of KEY and our device files, models/ and the peer's
 *                     sources (bin/FULL/: what the binary was built from)
 *   models            git tree id of TOP/models at HEAD, "-dirty" when the
 *                     work tree differs ("" without git)
 *   firmware          the image's version.txt (bare-metal: git describe)
 *   firmware_options  bare-metal: config.txt next to the ELF (board, -D
 *                     options, lwIP overrides); Linux: kernel and
 *                     initramfs keys next to the image
 * Values that cannot be found are "". */
void prov_add(cJSON *versions, const char *top, const char *qemu, const char *fw);
/* qemu_build and qemu_patch of the QEMU binary path @qemu, both "" when
 * it is not in an emu/qemu cache directory */
void prov_qemu_build(const char *qemu, char *build, size_t blen, char *patch, size_t plen);

#endif
