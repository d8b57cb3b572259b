/* SPDX-License-Identifier: Apache-2.0 */
/* lite_main.c - the picotpu-lite firmware's entry: the polling loop (docs/firmware.md,
 * "Lite firmware"). */
#include "lite_fw.h"

int main(void)
{
    lite_init();
    for (;;)
        lite_poll();
}
