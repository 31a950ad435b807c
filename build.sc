// modforge build: SpinalHDL generators (hw/) and their SpinalSim tests.
// Versions are the ones that work on our machines; see ../shared/TOOLCHAIN.md.
import mill._, scalalib._

object hw extends SbtModule {
  def scalaVersion = "2.13.14"
  val spinalVersion = "1.14.2"
  // SbtModule layout: hw/src/main/scala, hw/src/test/scala
  def ivyDeps = Agg(
    ivy"com.github.spinalhdl::spinalhdl-core:$spinalVersion",
    ivy"com.github.spinalhdl::spinalhdl-lib:$spinalVersion"
  )
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
