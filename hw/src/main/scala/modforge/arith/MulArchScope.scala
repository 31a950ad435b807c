package modforge.arith

import spinal.core.ScopeProperty

/** The product architecture of everything elaborated inside `MulArchScope(arch) on { ... }`.
  *
  * Every product of every design comes from [[modforge.Multiplier]]; its functions without an
  * explicit `arch` read this scope. So a variant `<base>__m<arch>` (modforge.modmul.Variant) rebuilds any
  * design of the registry, the reduction family and the NTT tiles included, on another multiplier
  * without threading the choice through each configuration. Default: Verilog `*`.
  */
object MulArchScope extends ScopeProperty[MulArch] {
  override def default: MulArch = MulArch()
}
