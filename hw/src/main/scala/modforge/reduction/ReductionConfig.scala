package modforge.reduction

import modforge.modmul.Designs

/** The methods of the NTT-reduction paper (Tosun et al.), named as in the registry. */
sealed abstract class Method(val name: String, val title: String)
object Method {
  case object Mont extends Method("mont", "Montgomery (Tosun Alg. 1)")
  case object BarrettClassic extends Method("cbarrett", "classical Barrett (Tosun Alg. 4)")
  case object Plantard extends Method("plantard", "Plantard (Tosun Alg. 5)")
  case object Wlm extends Method("wlm", "WLM (Tosun Alg. 2, fixed)")
  case object WlmMixed extends Method("wlmm", "WLM-Mixed (Tosun Alg. 8, fixed)")
  case object K2Red extends Method("k2red", "K2RED (Tosun Alg. 3)")
  case object MontShift extends Method("monts", "Montgomery-Shift (Tosun Alg. 6, fixed)")
  case object K2RedShift extends Method("k2reds", "K2RED-Shift (Tosun Alg. 7)")
  val all: Seq[Method] = Seq(Mont, BarrettClassic, Plantard, Wlm, WlmMixed, K2Red, MontShift, K2RedShift)
}

/** Pipeline preset of the shift-add methods (Tosun Section 4): rho_A registers the barrel
  * shifters' outputs apart from the additions, rho_B shifts and adds in one cycle. */
sealed abstract class Preset(val name: String)
object Preset {
  case object RhoA extends Preset("ra")
  case object RhoB extends Preset("rb")
}

/** One design of the reduction family: the k x k product A*B, then the method's reduction.
  *
  * @param w     WLM word size (q = 1 mod 2^w)
  * @param h     log q_h of the Proth-type methods (q = q_h 2^(k-h) + 1)
  * @param tile  WLM-Mixed's multiplier tile (Gamma_A, Gamma_B)
  * @param proth3l Proth-3l (true) or Proth-2l (false) for the shift methods
  * @param lazyOut K2RED without its final correction (out_t signed, -q < out_t < 2q)
  * @param product the register after the k x k product (the first pipeline stage)
  */
case class ReductionConfig(method: Method, k: Int, w: Int = 0, h: Int = 0, tile: (Int, Int) = ReductionConfig.defaultTile,
                           proth3l: Boolean = false, preset: Preset = Preset.RhoB, lazyOut: Boolean = false,
                           product: Boolean = true) {
  import Method._
  def name: String = method match {
    case Wlm => s"wlm_${k}_w$w"
    case WlmMixed => s"wlmm_${k}_h$h" + (if (tile != ReductionConfig.defaultTile) s"_t${tile._1}x${tile._2}" else "")
    case K2Red => s"k2red_${k}_h$h" + (if (lazyOut) "_lazy" else "")
    case MontShift | K2RedShift => s"${method.name}_${k}_h${h}_${if (proth3l) "3l" else "2l"}_${preset.name}"
    case _ => s"${method.name}_$k"
  }
  /** w of q = q_h 2^w + 1. */
  def omega: Int = if (method == Wlm) w else k - h
  /** Width of in_b: Plantard takes its precomputed constant B q' mod 2^2k. */
  def bWidth: Int = if (method == Plantard) 2 * k else k
  /** Width of out_t: the lazy K2RED leaves a signed t' in k+2 bits. */
  def outWidth: Int = if (lazyOut) k + 2 else k
  /** Width of the run-time shift amounts l1, l2, l3 (each < h-1). */
  def lBits: Int = BigInt(h - 2).bitLength max 1

  /** WLM / WLM-Mixed iterations (w_i, delta_i); see verif/reduction/widths.py. */
  def schedule: Seq[(Int, Int)] = method match {
    case Wlm => Seq.fill((k + w - 1) / w)((w, 0))
    case WlmMixed =>
      val w1 = math.min(tile._1, omega); val w0 = k - w1
      Seq((w0, omega - w0), (w1, omega - w1))
    case _ => Nil
  }
  /** Upper bounds of t before and after each word-level iteration. */
  def wlmBounds: Seq[BigInt] =
    schedule.scanLeft(((BigInt(1) << k) - 1).pow(2)) { case (b, (wi, _)) => (b >> wi) + (BigInt(1) << k) }
}

object ReductionConfig {
  val defaultTile = (26, 17)
  val grammar = "mont_<k>, cbarrett_<k>, plantard_<k>, wlm_<k>_w<w>, wlmm_<k>_h<h>[_t<GA>x<GB>], " +
    "k2red_<k>_h<h>[_lazy], monts_<k>_h<h>_<2l|3l>_<ra|rb>, k2reds_<k>_h<h>_<2l|3l>_<ra|rb>"

  private val Pattern = ("""(mont|cbarrett|plantard|wlm|wlmm|k2red|monts|k2reds)_(\d+)(?:_w(\d+))?(?:_h(\d+))?""" +
    """(?:_t(\d+)x(\d+))?(?:_(2l|3l))?(?:_(ra|rb))?(_lazy)?""").r

  /** None: not a reduction-family name. Some(Left(msg)): one with parameters the method cannot take. */
  def parse(name: String): Option[Either[String, ReductionConfig]] = name match {
    case Pattern(fam, kS, wS, hS, gaS, gbS, kindS, presetS, lazyS) =>
      def err(what: String) = Left(s"$what in '$name'; valid reduction designs: $grammar, ${Designs.minK} <= k <= ${Designs.maxK}")
      val method = Method.all.find(_.name == fam).get
      val present = Seq("w" -> wS, "h" -> hS, "t" -> gaS, "kind" -> kindS, "preset" -> presetS, "lazy" -> lazyS).collect { case (n, v) if v != null => n }
      val allowed: Set[String] = method match {
        case Method.Wlm => Set("w"); case Method.WlmMixed => Set("h", "t"); case Method.K2Red => Set("h", "lazy")
        case Method.MontShift | Method.K2RedShift => Set("h", "kind", "preset"); case _ => Set()
      }
      val k = BigInt(kS)
      Some(
        if (present.exists(!allowed(_))) err(s"$fam takes no ${present.filterNot(allowed).mkString("/")} field")
        else if (k < Designs.minK || k > Designs.maxK) err(s"width k = $kS is out of range ${Designs.minK}..${Designs.maxK}")
        else method match {
          case Method.Wlm =>
            if (wS == null) err("wlm needs its word size: wlm_<k>_w<w>")
            else if (BigInt(wS) < 2 || BigInt(wS) > k - 2) err(s"WLM word w = $wS must satisfy 2 <= w <= k-2 = ${k - 2} (q = 1 mod 2^w and q < 2^k)")
            else Right(ReductionConfig(method, k.toInt, w = wS.toInt))
          case Method.WlmMixed | Method.K2Red | Method.MontShift | Method.K2RedShift =>
            val lo = if (method == Method.MontShift || method == Method.K2RedShift) 3 else 1
            if (hS == null) err(s"$fam needs log q_h: ${fam}_<k>_h<h>")
            else if (BigInt(hS) < lo || BigInt(hS) > k / 2)
              err(s"log q_h = $hS must satisfy $lo <= log q_h <= k/2 = ${k / 2} (a Proth prime has w = k - log q_h >= k/2)")
            else {
              val h = hS.toInt
              method match {
                case Method.WlmMixed =>
                  val tile = if (gaS != null) (gaS.toInt, gbS.toInt) else defaultTile
                  if (tile._1 < tile._2 || tile._2 < 1) err(s"the multiplier tile ${tile._1}x${tile._2} must have GA >= GB >= 1")
                  else if (h > tile._2) err(s"WLM-Mixed needs log q_h = $h <= GB = ${tile._2} (one DSP column for q_h)")
                  else Right(ReductionConfig(method, k.toInt, h = h, tile = tile))
                case Method.K2Red => Right(ReductionConfig(method, k.toInt, h = h, lazyOut = lazyS != null))
                case _ =>
                  if (kindS == null || presetS == null)
                    err(s"$fam needs the prime kind and the pipeline preset: ${fam}_<k>_h<h>_<2l|3l>_<ra|rb>")
                  else Right(ReductionConfig(method, k.toInt, h = h, proth3l = kindS == "3l",
                    preset = if (presetS == "ra") Preset.RhoA else Preset.RhoB))
              }
            }
          case _ => Right(ReductionConfig(method, k.toInt))
        })
    case _ => None
  }
}
