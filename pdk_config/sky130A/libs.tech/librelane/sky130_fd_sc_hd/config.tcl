# modforge: the shipped sky130_fd_sc_hd configuration, unchanged (see pdk_config/README.md).
source "$::env(PDK_ROOT)/$::env(PDK)/libs.tech/openlane/sky130_fd_sc_hd/config.tcl"
