# SPDX-License-Identifier: Apache-2.0
# constraints/ulx3s.mk - the ULX3S (ECP5 LFE5U-85F-6BG381C) build (mk/board.mk, docs/boards.md).
#
# Clock: the PLL makes 25 MHz * CLKFB_DIV / CLKI_DIV = 25 * 5 / 3 = 41.67 MHz (41.6667; PFD
# 8.33 MHz, at least 3.125; VCO 41.67 * CLKOP_DIV = 500 MHz; the SDRAM clock CLKOS 6 VCO
# periods = 180 degrees behind), 14 clocks per bit at the FT231X's 3 Mbaud, its highest
# (2.976 Mbaud, 0.8 % slow; libpicotpu's default for an FT231X, host/src/ptpu_backend_usb.c
# chips[]; test-usb checks that the two agree).  Session 24 (session 23's cuts: the DMA read
# builder's registered run lengths, agen's skid register, the CPU's alignment bits; and the
# instruction queues' head registers): 42.11 MHz routed at this target.  With the store
# queue's head register alone that RTL routed at 39.89 MHz at 39.29 MHz (CLKI 7, CLKFB 11,
# CLKOP 14, phase 7; 13 clocks per bit) and session 23's main at 35.49 MHz there.  35.71
# MHz (CLKI 7, CLKFB 10, CLKOP 14, phase 7; 12 clocks per bit) in sessions 22-23: 39.05 MHz
# routed (session 22), 42.33 MHz (session 23).  30 MHz (CLKI 5, CLKFB 6, CLKOP 20, phase
# 10; 10 clocks per bit) until then (docs/performance.md, "ULX3S: session 24").
# History (docs/boards.md): at 60 MHz the 8 x 8 build reached only 13.95 MHz (session 5: the
# fetch unit's static checks and the fault merge in one combinational path).  Session 6 moved
# the checks to the prefetch buffer's write side and made the fault merge one compare deep;
# the build at 20 MHz then routed at 25.26 MHz (nextpnr --placer static --router router2 on
# the 20 MHz netlist; 42.2 ns was HeAP's estimate).  10 MHz (below) met with the session-5 RTL
# (13.95 MHz routed).  Session 7 retimed the next paths (the DMA engines' row handshakes, the UB's
# read addresses; no cycle changes); its build at 30 MHz / 3 Mbaud (CLKFB 6, CLKOP 20, phase 10)
# placed at an estimated 22.46 MHz (docs/performance.md, Boards), so 20 MHz stayed.  Session
# 14 cut the paths that scripts/board-paths.py estimated over 31 ns (the CPU's register file
# and data requests, the DMA read engine's row queue and builder, the board memory's
# arbiter, ACTIVATE's multiplier) and the build at 30 MHz / 3 Mbaud routed at 30.66 MHz.
# Session 15 cut the UB's live-value table, the DMA builder's inputs and the CPU counters'
# wrap check, and synthesizes with ABC9 (below): 36.49 MHz routed at 30 MHz.  Session 16
# (the live-value table stored by the low bits): 33.66 MHz routed at 30 MHz; 33.33 MHz
# (CLKI 3, CLKFB 4, CLKOP 18, phase 9; the UART at 11 clocks per bit, 1 % fast) routed
# at 32.73 MHz and failed.  Session 17 (new source, options off, the same logic): 30.23 MHz
# routed at 30 MHz.  Session 19 (the top's RstGlobal parameter, off here): 30.91 MHz.
# Session 21 (ABC9's wire delay, below): 34.50 MHz at 30 MHz, 33.52 MHz at 33.33 MHz.
# Other clocks that keep the UART exact (CLKI_DIV 5 throughout): 10 MHz (CLKFB 2, CLKOP 60,
# phase 30) or 20 MHz (CLKFB 4, CLKOP 30, phase 15) at 2 Mbaud, 15 MHz (CLKFB 3, CLKOP 40,
# phase 20) at 3 Mbaud.
# tests/boardsoc/test.mk reads BOARD_ulx3s_CLK_HZ: boardsoc-ulx3s simulates the SoC at this clock.
BOARD_ulx3s_MHZ := 41.67
BOARD_ulx3s_CLK_HZ := 41666667
BOARD_ulx3s_BAUD := 3000000
BOARD_ulx3s_FAMILY := ecp5
BOARD_ulx3s_TOP := ulx3s_top
BOARD_ulx3s_SRCS := $(BOARD_COMMON_SRCS) rtl/boards/ulx3s_top.sv
BOARD_ulx3s_CONFIG := ulx3s
# The LFE5U-85F has 156 MULT18X18D.  The 8 x 8 array (config ulx3s) puts all its 64 int8
# products on DSPs, the VPU 32 (8 lanes of 32 x 32 requantizing multiplies, 4 each) and the
# compute and store engines 11: 107.  A 16 x 16 array needs 331 and so logic products:
# -DTPU_MXU_DSP_PES=80 -DTPU_ECP5 (tpu_mxu DspPes, docs/mxu.md) makes 155, but that SoC
# took 99 % of the LUT places under ABC (session 5) and, under ABC9 (session 16), 97 % of
# the logic cells: it placed and did not route (docs/performance.md, Boards).  Session 17:
# with vpu_lanes = 4 (spec/picotpu.toml; 16 VPU DSPs) and -DTPU_MXU_DSP_PES=128, 79 % of the
# logic cells, 72 % adding -DTPU_LVT_BRAM (the UB's live-value table in block RAM); neither
# routed at 30 MHz (24.44 / 22.60 MHz estimated after placement), nor did the 8 x 8 build
# with -DTPU_LVT_BRAM.  Session 18: the same 16 x 16 at 20 MHz / 2 Mbaud placed at an estimated
# 30.10 MHz but routed with neither router2 nor router1; router2's congestion is in the
# MXU array's block and on nets of 500-3,800 loads (docs/performance.md, "session 18").
# Session 19: a 16 x 16 trial routed at 20 MHz with 2 VPU lanes, 136 DSP PEs, the live-value
# table in block RAM and the reset on a global network (docs/boards.md, "session 19").
BOARD_ulx3s_DEFINES :=
BOARD_ulx3s_FW_RAM_KB := 16
BOARD_ulx3s_TOP_PARAMS := ClkHz=$(BOARD_ulx3s_CLK_HZ) Baud=$(BOARD_ulx3s_BAUD) PllClkiDiv=3 PllClkfbDiv=5 \
                          PllClkopDiv=12 PllSdramPhase=6 FwRamKb=$(BOARD_ulx3s_FW_RAM_KB)
BOARD_ulx3s_CONSTRAINTS := constraints/ulx3s.lpf
# Session 15: Yosys maps the ULX3S with ABC9 (delay-driven, with the ECP5's cell and carry
# delays) instead of ABC's LUT mapper (by LUT levels: once the deepest paths were cut, it
# likely mapped the rest to the new, smaller depth).  On the retimed netlist the LUT mapper
# gave 4,000-6,600 more LUT4 than before and router2 no longer converged (1,329 and 2,031 wires
# still overused after 23 and 36 iterations).  With -abc9: 30,817 LUT4 instead of 45,232 and
# 36.49 MHz routed at the 30 MHz target (docs/performance.md, Boards).  ABC's last step on
# this netlist (&mfs) stops on an assertion; ABC9 keeps the mapping written before it, so the
# log shows one "ABC: ... failed: return code 134" warning and the build goes on.
BOARD_ulx3s_SYNTH_OPTS := -abc9
# Session 21: ABC9 maps with a wire delay of 5 ns (BOARD_ulx3s_ABC9_W, mk/board.mk) instead of
# synth_ecp5's 0.3 ns.  On this design a routed net costs 1-8 ns (the 30.91 MHz build's
# critical path: 3.4 ns of logic, 29.0 ns of routing), so 0.3 ns let ABC9 trade LUT levels for
# area; at 5 ns it maps for fewer levels: +3 % LUT4 (31,508), the worst path estimated before
# placement 30.0 ns instead of 34.7 (scripts/board-paths.py), 591 endpoints over 25 ns instead
# of 3,664, and the build routes at 34.50 MHz instead of 30.91 at the same RTL and placer.
# 2.5 ns: the same estimates, 32.90 MHz routed; 1 ns: 1,308 endpoints over 25 ns, and router2
# still had 957 overused wires at iteration 35 (docs/performance.md, "ULX3S: session 21").
BOARD_ulx3s_ABC9_W := 5000
BOARD_ulx3s_NEXTPNR = $(NEXTPNR_ECP5)
# nextpnr's analytic placer (--placer static) and router2: on session 6's 20 MHz netlist they
# placed and routed in 1,536 CPU-s to 25.26 MHz (PASS), where HeAP took 1,102 s + 822 s of
# annealing to place alone and router2 after HeAP had 3,736 wires still overused after 16
# iterations (docs/performance.md, Boards).
# Session 8: on session 7's retimed netlist, timing-driven placement took 1,266 s of the
# 2,040 s run (static 549 iterations + 645 s of annealing) for 25.18 MHz routed; with
# --no-tmdriv the whole run was 1,007 s and routed at 21.34 MHz (PASS), but on the next
# netlist (one function in tpu_mxu_row) the untimed placement left router2 with 2,600
# overused wires after 18 iterations where the first had 163.  So placement stays
# timing-driven; BOARD_ulx3s_PLACE=--no-tmdriv is a faster build to try by hand.  make test
# builds the ULX3S in full and checks its fit and timing (tests/boards/test.mk, board-ulx3s;
# BOARD_TESTS=icebreaker leaves it the synthesis and fit check, board-fit-ulx3s).
# BOARD_ulx3s_PLACE is appended to nextpnr's arguments, so it takes router options too:
# --tmg-ripup (router2's timing-driven rip-up) routes this netlist at 42.32 MHz instead of
# 42.11, but did not converge on a netlist that missed 45 MHz (docs/performance.md,
# "ULX3S: session 26"), so it is not the default.
BOARD_ulx3s_PLACE ?=
BOARD_ulx3s_PNR_ARGS = --85k --package CABGA381 --speed 6 --lpf ulx3s.lpf --textcfg ulx3s.config \
                       --placer static --router router2 $(BOARD_ulx3s_PLACE)
BOARD_ulx3s_PACK = $(ECPPACK) --compress
BOARD_ulx3s_FLASH = $(OPENFPGALOADER) -b ulx3s
BOARD_ulx3s_FLASH_VAR := OPENFPGALOADER
BOARD_ulx3s_FW := $(FW_BUILD)/ptpu_cp.bin
