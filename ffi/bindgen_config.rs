// The bindgen configuration for ffi/include/gamesman_topitop.h, included by
// the build script (`include!`, so it holds items only). The harness's test
// checks the committed bindings against what the script generated.

/// The header, relative to the workspace root.
pub const HEADER: &str = "ffi/include/gamesman_topitop.h";

/// The committed copy of the generated bindings, relative to the workspace root.
pub const COMMITTED: &str = "ffi/src/bindings.rs";

/// A bindgen builder for `header` (a path), allowlisting the shared types and
/// what the module uses from the core. The module's own functions and
/// globals are defined in Rust, so they are not bound.
pub fn bindgen_builder(header: &str) -> bindgen::Builder {
    bindgen::Builder::default()
        .header(header)
        .allowlist_type("POSITION|TIER|TIERPOSITION|MOVE|REMOTENESS|BOOLEAN|STRING|CONST_STRING|GENERIC_PTR")
        .allowlist_type("VALUE|USERINPUT|MOVELIST|TIERLIST")
        .allowlist_function(
            "CreateMovelistNode|CreateTierlistNode|FreeMoveList|SafeMalloc|SafeFree|gUnhashToTierPosition|\
             gHashToWindowPosition|gInitializeHashWindow|AutoGUIMakePositionString|\
             AutoGUIMakeMoveButtonStringA|AutoGUIMakeMoveButtonStringM|GetPrediction|\
             HandleDefaultTextInput|GetMyChar|printf",
        )
        .allowlist_var(
            "gHashWindowInitialized|gTierInHashWindow|gMaxPosOffset|gNumTiersInHashWindow|\
             gCanonicalPosition|gPositionToStringFunPtr|gTierChildrenFunPtr|\
             gNumberOfTierPositionsFunPtr|gTierToStringFunPtr|gIsLegalFunPtr|kSupportsTierGamesman|\
             kExclusivelyTierGamesman|gInitialTier|gInitialTierPosition|gIsInteract|gLoadTierdbArray|\
             TOPITOP_.*",
        )
        .default_enum_style(bindgen::EnumVariation::Consts)
        .prepend_enum_name(false)
        .layout_tests(true)
        .generate_comments(false)
        .formatter(bindgen::Formatter::Prettyplease)
}

/// Runs bindgen on `header`. bindgen panics when it cannot load libclang,
/// so that panic is caught and turned into an error like any other.
pub fn generate_bindings_text(header: &str) -> Result<String, String> {
    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = std::panic::catch_unwind(|| bindgen_builder(header).generate());
    std::panic::set_hook(quiet);
    match result {
        Ok(Ok(b)) => Ok(b.to_string()),
        Ok(Err(e)) => Err(e.to_string()),
        Err(panic) => Err(panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "bindgen panicked".to_string())),
    }
}
