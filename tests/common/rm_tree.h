/* tests/common/rm_tree.h - removes a test's scratch directory and all it
 * holds, as `rm -rf` does: nftw(3) depth first (FTW_DEPTH) without
 * following symbolic links (FTW_PHYS), so a link a test planted is
 * removed, not its target.  The includer defines _XOPEN_SOURCE 700 (or
 * _GNU_SOURCE) before its first include, for nftw. */
#ifndef GEMLAB_TESTS_RM_TREE_H
#define GEMLAB_TESTS_RM_TREE_H

#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>

static int rm_tree_one(const char *p, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    return remove(p);
}

/* 0, or -1 when something could not be removed */
static inline int rm_tree(const char *dir)
{
    return nftw(dir, rm_tree_one, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
