//! Compiles the C harness against the module header.

fn main() {
    println!("cargo:rerun-if-changed=harness.c");
    println!("cargo:rerun-if-changed=../include/gamesman_topitop.h");
    // Whole-archive: the harness and the module library call each other, so
    // the linker must keep every harness object whatever the order.
    cc::Build::new()
        .file("harness.c")
        .include("../include")
        .warnings(true)
        .extra_warnings(true)
        .flag_if_supported("-Werror")
        .link_lib_modifier("+whole-archive")
        .compile("topitop_harness");
}
