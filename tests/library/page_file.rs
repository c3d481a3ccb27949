//! The committed page file, `site/menace.html`, against its sources: built
//! from them as they are now (the digest it records, recomputed here),
//! within its size budget, and holding everything it needs.

#[path = "../../xtask/src/inputs.rs"]
mod inputs;

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn page() -> String {
    std::fs::read_to_string(root().join("site/menace.html")).expect("site/menace.html is committed")
}

#[test]
fn the_committed_page_file_is_built_from_the_sources_as_they_are() {
    let page = page();
    let recorded = page
        .split("<meta name=\"menace-inputs\" content=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the page file records its inputs' digest");
    let now = inputs::digest(root()).unwrap();
    assert_eq!(
        recorded, now,
        "site/menace.html is older than its sources: run `cargo xtask page` and commit it"
    );
}

#[test]
fn the_page_file_is_within_three_megabytes_and_carries_its_engine_font_and_modules() {
    let page = page();
    assert!(page.len() <= 3_000_000, "{} bytes", page.len());
    for part in [
        "globalThis.MENACE_WASM = \"",
        "globalThis.MENACE_FONT = \"",
        "<script type=\"importmap\">",
    ] {
        assert!(page.contains(part), "{part}");
    }
    // Every module the page imports is in the map; nothing is fetched by address.
    for module in std::fs::read_dir(root().join("src/web/page")).unwrap() {
        let name = module.unwrap().file_name().to_string_lossy().to_string();
        if name.ends_with(".js") {
            assert!(
                page.contains(&format!("\"menace/{name}\": \"data:text/javascript;base64,")),
                "{name}"
            );
        }
    }
    for outside in ["src=\"http", "href=\"http", "src=\"/", "href=\"/", "url(\"/", "url(/"] {
        assert!(
            !page.contains(outside),
            "the page file refers outside itself: {outside}"
        );
    }
}

#[test]
fn the_digest_changes_with_any_input() {
    // A copy of the inputs in a scratch folder, one byte changed.
    let dir = crate::common::scratch("page-inputs");
    for file in inputs::files(root()).unwrap() {
        let to = dir.join(file.strip_prefix(root()).unwrap());
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&file, &to).unwrap();
    }
    let before = inputs::digest(&dir).unwrap();
    assert_eq!(
        before,
        inputs::digest(root()).unwrap(),
        "the same files, the same digest"
    );
    let style = dir.join("src/web/page/style.css");
    let mut text = std::fs::read_to_string(&style).unwrap();
    text.push(' ');
    std::fs::write(&style, text).unwrap();
    assert_ne!(before, inputs::digest(&dir).unwrap());
}
