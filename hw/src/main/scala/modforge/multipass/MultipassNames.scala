package modforge.multipass

import modforge.polymul.StreamMul

/** The name grammar the multi-pass designs share (the mover, the passes, the engine; docs/polymul_multipass.md):
  * `<prefix>_<n>_x<n1>` and then options `_<letter><value>`, each at most once. Numbers take up to 6 digits, `_q` a
  * prime in decimal (in a multi-limb engine's name the hash of the limbs' primes, `hashQ`), `_m` the multipliers
  * (`fast`, `paper`). One parser, one refusal text and one command line. */
object MultipassNames {
  private val Head = """([a-z]+)_(\d{1,6})_x(\d{1,6})((?:_[a-z][a-z0-9]{1,20})*)""".r
  private val Opt = """_([a-z])([a-z0-9]{1,20})""".r

  /** A name taken apart: its prefix, n, n1 and the options by letter. */
  final case class Parsed(prefix: String, n: Int, n1: Int, opts: Map[String, String]) {
    def int(k: String, default: Int): Int = opts.get(k).map(_.toInt).getOrElse(default)
    /** `_q`, or 0: the configuration's default prime. */
    def prime: BigInt = opts.get("q").map(BigInt(_)).getOrElse(BigInt(0))
    def mul: StreamMul = opts.get("m").flatMap(StreamMul.parse).getOrElse(StreamMul.Fast)
  }

  /** "_a, _b and _c". */
  private def listing(keys: Seq[Char]): String = {
    val ks = keys.map(k => s"_$k")
    if (ks.size <= 1) ks.mkString else ks.init.mkString(", ") + " and " + ks.last
  }

  /** `design` as one of `prefixes`' names with the options `keys`, built into a configuration by `build` (whose
    * `require`s become the refusal's text); `what` names the kind in the refusal ("a rows-pass name"). `hashQ`: `_q`
    * is the hash of given primes, 7 hex digits ([[modforge.polymul.StreamPrimes.hash]]), not a prime. */
  def parse[C](design: String, prefixes: Seq[String], keys: String, what: String, grammar: String, hashQ: Boolean = false)
              (build: Parsed => C): Either[String, C] =
    design match {
      case Head(prefix, nS, n1S, opts) if prefixes.contains(prefix) =>
        val tokens = Opt.findAllMatchIn(opts).map(m => m.group(1) -> m.group(2)).toSeq
        val ks = tokens.map(_._1)
        val numeric = keys.filter(k => k != 'q' && k != 'm')
        if (ks.distinct.size != ks.size || ks.exists(k => k.length != 1 || !keys.contains(k.head)))
          Left(s"'$design': options are ${listing(keys)}, each at most once; $grammar")
        else if (tokens.exists { case (k, v) => k == "m" && StreamMul.parse(v).isEmpty })
          Left(s"'$design': the multipliers are _m${StreamMul.all.map(_.name).mkString(" or _m")}; $grammar")
        else if (hashQ && tokens.exists { case (k, v) => k == "q" && !v.matches("[0-9a-f]{7}") })
          Left(s"'$design': _q takes the hash of your limb primes, 7 hex digits (the first of sha256 of the primes in decimal " +
            s"joined by ','), not '${tokens.collectFirst { case ("q", v) => v }.get}' (the one-limb engine's _q<prime> is the prime " +
            s"itself); $grammar")
        else if (tokens.exists { case (k, v) => k != "m" && !(hashQ && k == "q") && (!v.forall(_.isDigit) || (k != "q" && v.length > 6)) })
          Left(s"'$design': ${listing(numeric)} take numbers up to 6 digits${if (keys.contains('q') && !hashQ) ", _q a prime" else ""}; $grammar")
        else
          try Right(build(Parsed(prefix, nS.toInt, n1S.toInt, tokens.toMap)))
          catch { case e: IllegalArgumentException => Left(s"'$design': ${e.getMessage.stripPrefix("requirement failed: ")}") }
      case _ => Left(s"'$design' is not $what; $grammar")
    }

  /** The generators' command line: `[--out DIR] NAME...`, every name checked before anything is written. */
  def main[C](args: Array[String], tool: String, grammar: String, parse: String => Either[String, C])(generate: (String, String, C) => Unit): Unit = {
    var out = "build"
    var names = Vector[String]()
    var it = args.toList
    while (it.nonEmpty) it match {
      case "--out" :: dir :: rest => out = dir; it = rest
      case flag :: _ if flag.startsWith("--") => System.err.println(s"error: unknown option $flag; usage: $tool [--out DIR] NAME..."); sys.exit(2)
      case n :: rest => names :+= n; it = rest
      case Nil =>
    }
    if (names.isEmpty) { System.err.println(s"error: no design given; $grammar"); sys.exit(2) }
    val configs = names.map(n => n -> parse(n).fold(e => { System.err.println(s"error: $e"); sys.exit(2) }, identity))
    for ((n, c) <- configs) generate(out, n, c)
  }
}
