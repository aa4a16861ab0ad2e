// SPDX-License-Identifier: GPL-2.0
/*
 * lsx-exit CODE: end the QEMU guest and hand CODE to the host.
 *
 * QEMU's isa-debug-exit device (iobase 0xf4) terminates QEMU with exit
 * status (CODE << 1) | 1 when a byte is written to it.  Without the
 * device, fall back to a reboot, which -no-reboot turns into an exit
 * with status 0 that the host reads as "no result".
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/io.h>
#include <sys/reboot.h>

int main(int argc, char **argv)
{
	int code = argc > 1 ? atoi(argv[1]) : 0;

	sync();
	if (code < 0 || code > 127)
		code = 127;
	if (ioperm(0xf4, 1, 1) == 0)
		outb(code, 0xf4);
	perror("lsx-exit: isa-debug-exit unavailable, rebooting");
	reboot(RB_AUTOBOOT);
	return 1;
}
