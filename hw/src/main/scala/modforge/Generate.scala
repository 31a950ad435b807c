package modforge

import spinal.core._
import java.io.{File, PrintWriter}

/** The SpinalHDL settings every generated design uses: synchronous active-high `reset`, `clk`. */
object ModforgeSpinal {
  def config(targetDirectory: String): SpinalConfig = SpinalConfig(
    targetDirectory = targetDirectory,
    defaultConfigForClockDomains = ClockDomainConfig(resetKind = SYNC, resetActiveLevel = HIGH),
    // A fixed header: no date, so regenerating an unchanged design gives identical files.
    headerWithDate = false
  )
}

/** Writes `<out>/<design>/rtl/<design>.v` and a manifest `<design>.json` (ports, widths, latency).
  *
  * Usage: Generate [--out DIR] DESIGN... | --table | --list
  * `--table` generates the 12 designs of the paper's Table 1 and writes the index `<out>/designs.json`.
  */
object Generate {
  def main(args: Array[String]): Unit = {
    var out = "build"
    var names = Vector[String]()
    var table = false
    var it = args.toList
    while (it.nonEmpty) {
      it match {
        case "--out" :: dir :: rest => out = dir; it = rest
        case "--table" :: rest      => names ++= Designs.table.map(_.name); table = true; it = rest
        case "--list" :: rest       => Designs.table.foreach(d => println(d.name)); return
        case flag :: _ if flag.startsWith("--") =>
          System.err.println(s"error: unknown option $flag; usage: Generate [--out DIR] DESIGN... | --table | --list"); sys.exit(2)
        case n :: rest => names :+= n; it = rest
        case Nil       =>
      }
    }
    if (names.isEmpty) { System.err.println(s"error: no design given; ${Designs.help}"); sys.exit(2) }
    val designs = names.map(n => Designs.parse(n) match {
      case Right(d) => d
      case Left(msg) => System.err.println(s"error: $msg"); sys.exit(2)
    })
    if (table) { new File(out).mkdirs(); writeIndex(new File(out, "designs.json")) }
    for (d <- designs) {
      val t0 = System.nanoTime()
      val dir = new File(s"$out/${d.name}/rtl")
      dir.mkdirs()
      val report = ModforgeSpinal.config(dir.getPath).generateVerilog {
        val c = d.family.build(d.k)
        c.setDefinitionName(d.name)
        c
      }
      writeManifest(new File(dir, s"${d.name}.json"), d, report.toplevel)
      println(f"rtl: ${d.name}%-12s latency ${report.toplevel.latency} -> ${dir.getPath}/${d.name}.v (${(System.nanoTime() - t0) / 1e9}%.1f s)")
    }
  }

  /** `<out>/designs.json`: the registry as the Python side and the Makefile read it. */
  def writeIndex(f: File): Unit = {
    val w = new PrintWriter(f)
    def list(xs: Seq[Any]) = xs.map(x => s""""$x"""").mkString("[", ", ", "]")
    w.println(s"""{
  "families": ${list(Designs.families.map(_.name))},
  "min_k": ${Designs.minK},
  "max_k": ${Designs.maxK},
  "table_widths": ${Designs.tableWidths.mkString("[", ", ", "]")},
  "table": ${list(Designs.table.map(_.name))}
}""")
    w.close()
  }

  def writeManifest(f: File, d: Design, top: ModMulComponent): Unit = {
    val ports = top.getAllIo.toSeq.map { p =>
      val dir = if (p.isInput) "in" else "out"
      s"""    {"name": "${p.getName()}", "dir": "$dir", "width": ${p.getBitsWidth}}"""
    }
    val w = new PrintWriter(f)
    w.println(s"""{
  "design": "${d.name}",
  "family": "${d.family.name}",
  "title": "${d.family.title}",
  "k": ${d.k},
  "latency": ${top.latency},
  "generator": "SpinalHDL ${Spinal.version}",
  "ports": [
${ports.mkString(",\n")}
  ]
}""")
    w.close()
  }
}
