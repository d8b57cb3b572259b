# SPDX-License-Identifier: Apache-2.0
# mk/configs.mk - SoC parameters of each named configuration.
# Generated from spec/picotpu.toml by scripts/gen-spec.py: do not edit.

SOC_CONFIGS := sim16 sim32 sim128 ulx3s icebreaker
SOC_CFG_sim16 := N=16 EnableBf16=1 UbRows=4096 WbRows=1024 AccRows=2048 VpRows=256 NumPch=8 MemKb=262144 MemBackend=0 MemDataWidth=256
SOC_CFG_sim32 := N=32 EnableBf16=1 UbRows=4096 WbRows=1024 AccRows=2048 VpRows=256 NumPch=8 MemKb=262144 MemBackend=0 MemDataWidth=256
SOC_CFG_sim128 := N=128 EnableBf16=1 UbRows=2048 WbRows=1024 AccRows=1024 VpRows=128 NumPch=16 MemKb=524288 MemBackend=0 MemDataWidth=256
SOC_CFG_ulx3s := N=8 EnableBf16=0 UbRows=1024 WbRows=256 AccRows=512 VpRows=64 NumPch=0 MemKb=32768 MemBackend=2 MemDataWidth=64
SOC_CFG_icebreaker := N=4 EnableBf16=0 UbRows=256 WbRows=64 AccRows=128 VpRows=16 NumPch=0 MemKb=124 MemBackend=1 MemDataWidth=64
