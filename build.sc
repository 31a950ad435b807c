// modforge build: SpinalHDL generators (hw/) and their SpinalSim tests.
// Versions are the ones that work on our machines; see docs/toolchain.md.
import mill._, scalalib._

object hw extends SbtModule {
  def scalaVersion = "2.13.14"
  val spinalVersion = "1.14.2"
  // SbtModule layout: hw/src/main/scala, hw/src/test/scala
  def ivyDeps = Agg(
    ivy"com.github.spinalhdl::spinalhdl-core:$spinalVersion",
    ivy"com.github.spinalhdl::spinalhdl-lib:$spinalVersion",
    ivy"com.lihaoyi::ujson:3.3.1" // reads pdk_config/ (the version Mill 0.11.13 itself uses)
  )
  // pdk_config/ (the PDK settings the flow reads too) on the classpath as the resource folder
  // pdk_config/, so the generators find it from any working directory (mem.SkyMacro).
  def pdkConfig = T.source(T.workspace / "pdk_config")
  def pdkConfigResources = T {
    os.copy(pdkConfig().path, T.dest / "pdk_config")
    PathRef(T.dest)
  }
  def resources = T { super.resources() :+ pdkConfigResources() }
  def scalacOptions = Seq("-deprecation", "-feature", "-unchecked")
  def scalacPluginIvyDeps = Agg(ivy"com.github.spinalhdl::spinalhdl-idsl-plugin:$spinalVersion")
  // SpinalHDL infers widths recursively on its elaboration threads (default stack size): the explicit
  // 256-bit products (modforge.arith) overflow the JVM's default 1 MB stack.
  def forkArgs = Seq("-Xss256m")

  object test extends SbtModuleTests with TestModule.ScalaTest {
    def ivyDeps = Agg(ivy"org.scalatest::scalatest:3.2.19")
    def forkArgs = hw.forkArgs
  }
}
