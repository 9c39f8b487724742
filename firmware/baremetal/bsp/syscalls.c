/* syscalls.c - the newlib(-nano) system call layer: stdout/stderr go to the
 * UART, the heap is the linker's .heap region, everything else fails. */
#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include "bsp.h"

extern char __heap_start[], __heap_end[];

int _write(int fd, const char *buf, int len);
int _read(int fd, char *buf, int len);
void *_sbrk(ptrdiff_t incr);
int _close(int fd);
int _fstat(int fd, struct stat *st);
int _isatty(int fd);
int _lseek(int fd, int off, int whence);
void _exit(int code);
int _kill(int pid, int sig);
int _getpid(void);

int _write(int fd, const char *buf, int len)
{
    if (fd != 1 && fd != 2) {
        errno = EBADF;
        return -1;
    }
    uart_write(buf, (size_t)len);
    return len;
}

int _read(int fd, char *buf, int len)
{
    (void)fd; (void)buf; (void)len;
    return 0;
}

void *_sbrk(ptrdiff_t incr)
{
    static char *brk = __heap_start;
    if (incr < 0 || brk + incr > __heap_end) {
        errno = ENOMEM;
        return (void *)-1;
    }
    char *old = brk;
    brk += incr;
    return old;
}

int _close(int fd) { (void)fd; return -1; }
int _fstat(int fd, struct stat *st) { (void)fd; st->st_mode = S_IFCHR; return 0; }
int _isatty(int fd) { (void)fd; return 1; }
int _lseek(int fd, int off, int whence) { (void)fd; (void)off; (void)whence; return 0; }
int _kill(int pid, int sig) { (void)pid; (void)sig; errno = EINVAL; return -1; }
int _getpid(void) { return 1; }
void _exit(int code) { (void)code; bsp_reboot(); }

/* -nostartfiles: no crti/crtn, so __libc_init_array's _init/_fini hooks
 * are empty here (constructors still run through .init_array). */
void _init(void);
void _fini(void);
void _init(void) {}
void _fini(void) {}
