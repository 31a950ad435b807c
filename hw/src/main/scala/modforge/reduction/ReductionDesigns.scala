package modforge.reduction

/** The reduction family's table designs (reports/reduction_table.md): at 32 and 64 bits the
  * paper's parameters (Tables 3 and 4: WLM with w = log n + 1 = 17, WLM-Mixed h = 15/17, K2RED
  * h = 15/26, the shift methods at h = 15/16 and 17/32, Proth-2l and -3l, rho_A and rho_B), at 128
  * and 256 bits the methods that generalize, at one parameter each.
  */
object ReductionDesigns {
  val byWidth: Seq[(Int, Seq[String])] = Seq(
    32 -> Seq("mont_32", "cbarrett_32", "plantard_32", "wlm_32_w17", "wlmm_32_h15", "k2red_32_h15", "k2red_32_h15_lazy",
      "monts_32_h16_2l_rb", "monts_32_h15_3l_ra", "k2reds_32_h16_2l_ra", "k2reds_32_h15_3l_rb"),
    64 -> Seq("mont_64", "cbarrett_64", "plantard_64", "wlm_64_w17", "wlmm_64_h17", "k2red_64_h26", "k2red_64_h26_lazy",
      "monts_64_h17_2l_rb", "monts_64_h17_3l_ra", "k2reds_64_h17_2l_ra", "k2reds_64_h32_3l_rb"),
    128 -> Seq("mont_128", "cbarrett_128", "plantard_128", "wlm_128_w17", "wlmm_128_h17", "k2red_128_h64",
      "monts_128_h17_2l_rb", "k2reds_128_h17_2l_ra"),
    256 -> Seq("mont_256", "cbarrett_256", "plantard_256", "wlm_256_w17", "wlmm_256_h17", "k2red_256_h128",
      "monts_256_h17_2l_rb", "k2reds_256_h17_2l_ra")
  )
  val table: Seq[String] = byWidth.flatMap(_._2)
}
