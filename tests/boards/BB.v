// SPDX-License-Identifier: Apache-2.0
// BB.v (lint only): the ECP5 bidirectional I/O buffer BB as a port-only module, for Verilator
// lint of rtl/boards/ulx3s_top.sv (Yosys's own model of BB drives its pad with a tristate
// inside a primitive, which Verilator does not accept).  Not used for synthesis.
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off UNDRIVEN */
module BB (input I, input T, output O, inout B);
endmodule
/* verilator lint_on UNDRIVEN */
/* verilator lint_on UNUSEDSIGNAL */
