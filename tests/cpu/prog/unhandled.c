/* SPDX-License-Identifier: Apache-2.0 */
/* unhandled.c - an exception without a handler: the platform layer reports
 * the cause on the console and ends with exit code 0x100 + mcause (tb_cpu
 * checks both: --expect-exit 0x102). */
#include <stdio.h>

#include "ptpu_fw.h"

int main(void)
{
    printf("about to execute an illegal instruction\n");
    __asm__ volatile(".word 0x00000000");
    printf("not reached\n");
    return 0;
}
