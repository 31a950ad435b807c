# modforge override of the sky130A PDK configuration for LibreLane 3 (see pdk_config/README.md).
# The shipped configuration (open_pdks 1.0.255, Dec 2021) reads STD_CELL_LIBRARY and
# STD_CELL_LIBRARY_OPT before anyone sets them: newer PDKs set their defaults themselves.
if {![info exists ::env(STD_CELL_LIBRARY)]} { set ::env(STD_CELL_LIBRARY) sky130_fd_sc_hd }
if {![info exists ::env(STD_CELL_LIBRARY_OPT)]} { set ::env(STD_CELL_LIBRARY_OPT) $::env(STD_CELL_LIBRARY) }
source "$::env(PDK_ROOT)/$::env(PDK)/libs.tech/openlane/config.tcl"
