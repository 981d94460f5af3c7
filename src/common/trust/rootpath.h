/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Paths of another machine mounted under a directory (verify-file
 * --sysroot): every name resolves inside that root, as it would on the
 * machine itself, never on the host.  A symbolic link at any depth is
 * followed with an absolute target taken from the root and ".." stopping
 * at the root, as openat2(2) with RESOLVE_IN_ROOT resolves it; Debian's
 * /lib/modules/RELEASE/build -> /usr/src/linux-headers-RELEASE is such a
 * link.
 */
#ifndef MODSIGN_TRUST_ROOTPATH_H
#define MODSIGN_TRUST_ROOTPATH_H

/*
 * The host path of path (absolute, as the machine names it) under root:
 * root, then the resolved components, none of them a symbolic link once
 * the walk is done.  A component not there ends the walk: the rest is
 * kept as written (opening the result then fails with ENOENT).  With
 * root NULL or "/" the path is the host's own, copied.  Where openat2()
 * is available, the file it opens with RESOLVE_IN_ROOT must be the one
 * the walk found (-EXDEV otherwise: the tree changed under the walk).
 * 0 and a malloc'd *out; -ELOOP after 40 links, -ENAMETOOLONG, -ENOMEM.
 */
int rootpath_resolve(const char *root, const char *path, char **out);

/* Whether root names the host's own root (NULL, "", "/"). */
int rootpath_is_host(const char *root);

#endif
