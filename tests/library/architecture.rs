//! The arrows between source files point one way: no file imports, directly
//! or through others, a file that imports it. That holds in each of the
//! crates: the core (`crates/menace-core/src/`), the page's engine
//! (`crates/menace-web/src/`), its WebAssembly module
//! (`crates/menace-wasm/src/`), the `menace` library (`src/lib.rs` and its
//! modules), the `menace` command (`main.rs` and `cli/`) and the task
//! runner (`xtask/src/`). The same holds one level up, between the core's layers (`game`,
//! `games`, `search`, `machine`, `training`, `registry`, `machine_spec`,
//! `experiment`), and no file of the core names what its `lib.rs`
//! re-exports (an arrow up to the root, which names every layer).
//!
//! The compiler keeps the core from the front ends (another crate), and the
//! front ends from each other (the `web`, `charts` and `cli` features:
//! `.ci/run` builds each alone); this test keeps the arrows within each
//! crate, where cargo cannot.
//!
//! `cargo test --release --test architecture -- --nocapture` prints the arrows.
//!
//! An arrow is a path a file names (`use crate::machine::Machine;`,
//! `super::board::Hex`, an inline `crate::fsutil::read_text(...)`, or a
//! child module's item named from its parent, `solve::run(args)`), resolved
//! to the file that defines the longest matching module. A name taken
//! through a re-export of `lib.rs` (`crate::Game`) is an arrow to `lib.rs`,
//! which re-exports everything: such a file would close a cycle, so the
//! library always names the defining module. A `mod.rs` that hands work to
//! its children therefore keeps what they share in a child of its own.
//! The command names the library as `menace::...`: an arrow into another
//! crate, which cannot close a cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A source file and the module path it defines within its crate.
struct Source {
    file: String,
    module: Vec<String>,
    text: String,
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    collect_ending(dir, &["rs"], out);
}

/// Every file under `dir` whose extension is one of `ext`, in order.
fn collect_ending(dir: &Path, ext: &[&str], out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .expect("read src")
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect_ending(&p, ext, out);
        } else if p.extension().is_some_and(|e| ext.iter().any(|x| e == *x)) {
            out.push(p);
        }
    }
}

/// The module path of a file relative to its crate's root folder.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

/// Source text without comments and literals (a path in a doc example or a
/// message is not an arrow): line and block comments (nested, as Rust
/// nests them), strings, raw strings (`r"..."`, `r#"..."#`, `br"..."`) and
/// character literals (`'"'`, `'\''`) become one space each, line breaks
/// kept; lifetimes and labels (`'a`) stay.
fn code_only(text: &str) -> String {
    // In-file unit tests (`#[cfg(test)] mod tests`, last in a file) are not the file's imports.
    let text = text.split("#[cfg(test)]").next().unwrap_or(text);
    let chars: Vec<char> = text.chars().collect();
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    let mut out = String::new();
    let mut i = 0;
    // Past the literal or comment starting at `i`, line breaks inside it kept.
    let skip_to = |out: &mut String, from: usize, to: usize| {
        out.push(' ');
        out.extend(chars[from..to.min(chars.len())].iter().filter(|&&c| c == '\n'));
        to
    };
    while i < chars.len() {
        let c = chars[i];
        let after_ident = i > 0 && is_ident(chars[i - 1]);
        if c == '/' && at(i + 1) == '/' {
            let end = (i..chars.len()).find(|&j| chars[j] == '\n').unwrap_or(chars.len());
            i = skip_to(&mut out, i, end);
        } else if c == '/' && at(i + 1) == '*' {
            let (mut depth, mut j) = (1, i + 2);
            while j < chars.len() && depth > 0 {
                if chars[j] == '/' && at(j + 1) == '*' {
                    depth += 1;
                    j += 2;
                } else if chars[j] == '*' && at(j + 1) == '/' {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            i = skip_to(&mut out, i, j);
        } else if let Some(open) = raw_string_open(&chars, i).filter(|_| !after_ident) {
            // `r##"`: the string ends at `"##`.
            let hashes = open - i - 1 - usize::from(c != 'r');
            let closing: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            let end = (open + 1..chars.len())
                .find(|&j| chars[j..].starts_with(&closing))
                .map_or(chars.len(), |j| j + closing.len());
            i = skip_to(&mut out, i, end);
        } else if c == '"' {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '"' {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            i = skip_to(&mut out, i, j + 1);
        } else if c == '\'' && at(i + 1) == '\\' {
            // An escaped character: `'\''`, `'\n'`, `'\u{7f}'`.
            let end = (i + 3..chars.len()).find(|&j| chars[j] == '\'').unwrap_or(chars.len());
            i = skip_to(&mut out, i, end + 1);
        } else if c == '\'' && at(i + 2) == '\'' {
            i = skip_to(&mut out, i, i + 3);
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Where the opening quote is, if a raw string (`r"`, `r#"`, `br##"`, `cr"`) starts at `i`.
fn raw_string_open(chars: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if matches!(chars.get(j), Some('b' | 'c')) {
        j += 1;
    }
    if chars.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    while chars.get(j) == Some(&'#') {
        j += 1;
    }
    (chars.get(j) == Some(&'"')).then_some(j)
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every path the code names that starts at `crate`, `super` or `self`, or
/// at one of `children` (this module's child modules: `solve::run(args)`),
/// with `use` groups (`crate::a::{b, c::d}`) expanded, as absolute module paths.
fn named_paths(code: &str, module: &[String], children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts_word = i == 0 || !(is_ident(chars[i - 1]) || chars[i - 1] == ':');
        let rest: String = chars[i..chars.len().min(i + 7)].iter().collect();
        // A child module named from here, outside a `use`: not after a `.`
        // (`.collect::<T>()` is a method), and only a name of a child.
        if starts_word && (i == 0 || chars[i - 1] != '.') {
            let end = (i..chars.len()).find(|&j| !is_ident(chars[j])).unwrap_or(chars.len());
            let word: String = chars[i..end].iter().collect();
            if children.contains(&word) && chars[end..].starts_with(&[':', ':']) {
                i = read_tree(&chars, i, module.to_vec(), &mut out);
                continue;
            }
        }
        if starts_word && rest.starts_with("use ") {
            // `use child::X;` names a submodule of this one (2018 paths).
            let mut found = Vec::new();
            read_tree(&chars, i + 4, module.to_vec(), &mut found);
            out.extend(found.into_iter().filter(|p| {
                let first = p.get(module.len()).map(String::as_str);
                !matches!(
                    first,
                    Some("crate" | "super" | "self" | "std" | "core" | "alloc") | None
                )
            }));
            i += 4;
            continue;
        }
        let head = ["crate::", "super::", "self::"]
            .into_iter()
            .find(|h| rest.starts_with(h));
        let (Some(head), true) = (head, starts_word) else {
            i += 1;
            continue;
        };
        // Where the path is anchored: the crate root, or this module / its parent.
        let mut base: Vec<String> = match head {
            "crate::" => Vec::new(),
            "self::" => module.to_vec(),
            _ => {
                // `super` of a `mod.rs` or plain file is the parent module.
                let mut m = module.to_vec();
                m.pop();
                m
            }
        };
        i += head.len();
        // Further `super::`.
        while chars[i..].iter().collect::<String>().starts_with("super::") {
            base.pop();
            i += "super::".len();
        }
        i = read_tree(&chars, i, base, &mut out);
    }
    out
}

/// Read `a::b::{c, d::e}` from `i`, pushing every full path; returns where it stopped.
fn read_tree(chars: &[char], mut i: usize, mut path: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    loop {
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        if i < chars.len() && chars[i] == '{' {
            i += 1;
            loop {
                i = read_tree(chars, i, path.clone(), out);
                while i < chars.len() && (chars[i].is_whitespace() || chars[i] == ',') {
                    i += 1;
                }
                if i >= chars.len() || chars[i] == '}' {
                    return i + 1;
                }
            }
        }
        let start = i;
        while i < chars.len() && is_ident(chars[i]) {
            i += 1;
        }
        if i > start {
            path.push(chars[start..i].iter().collect());
        } else if chars.get(i) == Some(&'*') {
            // A glob (`a::{b::*, c}`): the path so far.
            i += 1;
        }
        if chars[i..].iter().take(2).collect::<String>() == "::" {
            i += 2;
            continue;
        }
        // Skip `as name`.
        out.push(path);
        return i;
    }
}

/// The file defining the longest prefix of `path` among `modules`.
fn resolve<'a>(path: &[String], modules: &'a BTreeMap<Vec<String>, String>) -> Option<&'a String> {
    (0..=path.len()).rev().find_map(|n| modules.get(&path[..n]))
}

fn graph(root: &Path, files: &[PathBuf]) -> BTreeMap<String, BTreeSet<String>> {
    // Files are named from the workspace: `src/...` or `crates/menace-core/src/...`.
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shown = root
        .strip_prefix(workspace)
        .map_or(PathBuf::from("src"), Path::to_path_buf);
    let sources: Vec<Source> = files
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(root).expect("under root");
            Source {
                file: format!("{}/{}", shown.display(), rel.display()),
                module: module_of(rel),
                text: fs::read_to_string(p).expect("read source"),
            }
        })
        .collect();
    let modules: BTreeMap<Vec<String>, String> = sources.iter().map(|s| (s.module.clone(), s.file.clone())).collect();
    let mut edges = BTreeMap::new();
    for s in &sources {
        let children: BTreeSet<String> = modules
            .keys()
            .filter(|m| m.len() == s.module.len() + 1 && m.starts_with(&s.module))
            .filter_map(|m| m.last().cloned())
            .collect();
        let mut to = BTreeSet::new();
        for path in named_paths(&code_only(&s.text), &s.module, &children) {
            if let Some(f) = resolve(&path, &modules) {
                if *f != s.file {
                    to.insert(f.clone());
                }
            }
        }
        edges.insert(s.file.clone(), to);
    }
    edges
}

/// A cycle in `edges`, if there is one, as the files along it.
fn find_cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit(
        n: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        marks: &mut BTreeMap<String, Mark>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        marks.insert(n.to_string(), Mark::Open);
        stack.push(n.to_string());
        for m in edges.get(n).into_iter().flatten() {
            match marks.get(m).copied().unwrap_or(Mark::New) {
                Mark::Open => {
                    let from = stack.iter().position(|s| s == m).unwrap_or(0);
                    let mut cycle = stack[from..].to_vec();
                    cycle.push(m.clone());
                    return Some(cycle);
                }
                Mark::New => {
                    if let Some(c) = visit(m, edges, marks, stack) {
                        return Some(c);
                    }
                }
                Mark::Done => {}
            }
        }
        stack.pop();
        marks.insert(n.to_string(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for n in edges.keys() {
        if marks.get(n).copied().unwrap_or(Mark::New) == Mark::New {
            if let Some(c) = visit(n, edges, &mut marks, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

/// The crates whose files are checked.
#[derive(Clone, Copy, PartialEq)]
enum Crate {
    /// `crates/menace-core/src/`.
    Core,
    /// `crates/menace-web/src/`, the page's engine.
    Web,
    /// `crates/menace-wasm/src/`, its WebAssembly module.
    Wasm,
    /// `xtask/src/`, the task that builds the page file.
    Tasks,
    /// The `menace` library: `src/lib.rs` and every module but `cli/`.
    Library,
    /// The `menace` command: `src/main.rs` and `cli/`.
    Command,
}

/// The root folder and the files of one crate.
fn crate_files(which: Crate) -> (PathBuf, Vec<PathBuf>) {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = match which {
        Crate::Core => workspace.join("crates/menace-core/src"),
        Crate::Web => workspace.join("crates/menace-web/src"),
        Crate::Wasm => workspace.join("crates/menace-wasm/src"),
        Crate::Tasks => workspace.join("xtask/src"),
        Crate::Library | Crate::Command => workspace.join("src"),
    };
    let mut files = Vec::new();
    collect(&root, &mut files);
    if matches!(which, Crate::Library | Crate::Command) {
        let command = which == Crate::Command;
        files.retain(|p| (p.starts_with(root.join("cli")) || p == &root.join("main.rs")) == command);
    }
    (root, files)
}

fn core_files() -> (PathBuf, Vec<PathBuf>) {
    crate_files(Crate::Core)
}

/// The arrows of one crate, printed.
fn print_arrows(edges: &BTreeMap<String, BTreeSet<String>>, root_file: &str) {
    println!("File arrows (file -> files it imports):");
    for (from, to) in edges {
        if !to.is_empty() && from != root_file {
            println!("  {from} -> {}", to.iter().cloned().collect::<Vec<_>>().join(", "));
        }
    }
}

/// The layer a core file belongs to: its top-level module.
fn layer(file: &str) -> String {
    let rest = file
        .trim_start_matches("crates/menace-core/")
        .trim_start_matches("src/");
    rest.split('/')
        .next()
        .unwrap_or(rest)
        .trim_end_matches(".rs")
        .to_string()
}

#[test]
fn no_import_cycles_between_core_files() {
    let (root, files) = core_files();
    let edges = graph(&root, &files);
    print_arrows(&edges, "crates/menace-core/src/lib.rs");
    // lib.rs declares and re-exports every layer; any file naming it would close a cycle.
    assert_eq!(find_cycle(&edges), None, "an import cycle between files");
}

#[test]
fn no_core_file_names_what_the_root_re_exports() {
    // `crate::Rules` instead of `crate::game::Rules`: an arrow up to lib.rs,
    // which names every layer, and so a cycle the layers cannot see.
    let (root, files) = core_files();
    let edges = graph(&root, &files);
    let up: Vec<&String> = edges
        .iter()
        .filter(|(_, to)| to.contains("crates/menace-core/src/lib.rs"))
        .map(|(from, _)| from)
        .collect();
    assert!(up.is_empty(), "files naming the core's root: {up:?}");
}

#[test]
fn no_import_cycles_between_library_files() {
    let (root, files) = crate_files(Crate::Library);
    let edges = graph(&root, &files);
    print_arrows(&edges, "src/lib.rs");
    assert_eq!(find_cycle(&edges), None, "an import cycle between files of the library");
}

#[test]
fn no_import_cycles_between_files_of_the_pages_engine() {
    let (root, files) = crate_files(Crate::Web);
    assert!(files.iter().any(|f| f.ends_with("local.rs")) && files.len() > 10);
    let edges = graph(&root, &files);
    print_arrows(&edges, "crates/menace-web/src/lib.rs");
    assert_eq!(find_cycle(&edges), None, "an import cycle between files of menace-web");
    let up: Vec<&String> = edges
        .iter()
        .filter(|(_, to)| to.contains("crates/menace-web/src/lib.rs"))
        .map(|(from, _)| from)
        .collect();
    assert!(up.is_empty(), "files naming menace-web's root: {up:?}");
}

#[test]
fn no_import_cycles_between_command_files() {
    let (root, files) = crate_files(Crate::Command);
    assert!(files.iter().any(|f| f.ends_with("main.rs")) && files.len() > 10);
    let edges = graph(&root, &files);
    print_arrows(&edges, "");
    // A subcommand's folder: its mod.rs hands work to files that do not name it back.
    assert_eq!(find_cycle(&edges), None, "an import cycle between files of the command");
}

#[test]
fn every_source_file_is_checked() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = Vec::new();
    collect(&workspace.join("src"), &mut all);
    for dir in [
        "crates/menace-core/src",
        "crates/menace-web/src",
        "crates/menace-wasm/src",
        "xtask/src",
    ] {
        collect(&workspace.join(dir), &mut all);
    }
    for dir in fs::read_dir(workspace.join("crates")).unwrap() {
        let name = dir.unwrap().file_name();
        assert!(
            ["menace-core", "menace-web", "menace-wasm"].contains(&name.to_str().unwrap()),
            "a crate this test does not know: crates/{name:?}"
        );
    }
    let checked: usize = [
        Crate::Core,
        Crate::Web,
        Crate::Wasm,
        Crate::Tasks,
        Crate::Library,
        Crate::Command,
    ]
    .into_iter()
    .map(|c| crate_files(c).1.len())
    .sum();
    assert_eq!(checked, all.len());
}

#[test]
fn layers_point_one_way() {
    let (root, files) = core_files();
    let edges = graph(&root, &files);
    let mut layers: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, to) in &edges {
        if from == "crates/menace-core/src/lib.rs" {
            continue;
        }
        let entry = layers.entry(layer(from)).or_default();
        entry.extend(to.iter().map(|t| layer(t)).filter(|l| *l != layer(from)));
    }
    println!("Layer arrows (layer -> layers it uses):");
    for (from, to) in &layers {
        println!("  {from} -> {}", to.iter().cloned().collect::<Vec<_>>().join(", "));
    }
    assert_eq!(find_cycle(&layers), None, "an import cycle between layers");
    // A game knows nothing of learners, experiments or the registry.
    for low in ["game", "games", "search"] {
        for high in ["machine", "training", "registry", "machine_spec", "experiment"] {
            assert!(
                !layers.get(low).is_some_and(|t| t.contains(high)),
                "{low} must not use {high}"
            );
        }
    }
}

#[test]
fn the_lexer_leaves_out_comments_and_literals() {
    let paths = |text: &str| {
        let module = vec!["m".to_string()];
        named_paths(&code_only(text), &module, &BTreeSet::new())
            .into_iter()
            .map(|p| p.join("::"))
            .collect::<Vec<_>>()
    };
    // Block comments, nested, over lines; a line comment inside one ends with it.
    assert_eq!(
        paths("/* crate::a\n /* crate::b */ crate::c // */\n */ use crate::d;"),
        ["d"]
    );
    // Raw strings, with and without hashes, and one holding a quote and `"#`.
    assert_eq!(
        paths("let s = r\"crate::a\"; let t = r#\"crate::b \" crate::c\"#; let u = br##\"\"# crate::e\"##; crate::f::g();"),
        ["f::g"]
    );
    // A raw string is not an identifier ending in `r` before a string.
    assert_eq!(paths("let letter = \"x\"; bar(\"crate::a\"); crate::h::i()"), ["h::i"]);
    // Escaped quotes in a string; character literals holding quotes; lifetimes stay code.
    assert_eq!(
        paths("let a = \"\\\" crate::a \\\\\"; let q = '\"'; let r = '\\''; fn f<'a>(x: &'a str) { crate::j::k(x) } let s = '\"';"),
        ["j::k"]
    );
    // Line breaks are kept, and a `crate::` inside a word is not a path.
    let code = code_only("a /* x\ny */ b \"p\nq\" c // crate::z\nd");
    assert_eq!(code.lines().count(), 4);
    assert!(code.contains('d') && !code.contains('z') && !code.contains('p'));
    assert_eq!(paths("my_crate::x::y(); use crate::k;"), ["k"]);
    // A glob inside a group ends its path and the group goes on.
    assert_eq!(paths("use crate::a::{b::*, c};"), ["a::b", "a::c"]);
}

#[test]
fn the_checker_finds_a_cycle_and_resolves_paths() {
    // The checker itself, on a hand-made graph and on hand-written code.
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    edges.insert("a".into(), ["b".to_string()].into());
    edges.insert("b".into(), ["c".to_string()].into());
    edges.insert("c".into(), BTreeSet::new());
    assert_eq!(find_cycle(&edges), None);
    edges.insert("c".into(), ["a".to_string()].into());
    assert_eq!(
        find_cycle(&edges),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );

    let code = code_only(
        "use crate::a::{b, c::{D, e}}; // crate::ignored\nlet x = super::f::g(); \"crate::no\";\npub use child::H;",
    );
    let module = vec!["m".to_string(), "n".to_string()];
    let paths = named_paths(&code, &module, &BTreeSet::new());
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        paths,
        vec![
            s(&["a", "b"]),
            s(&["a", "c", "D"]),
            s(&["a", "c", "e"]),
            s(&["m", "f", "g"]),
            s(&["m", "n", "child", "H"])
        ]
    );

    // A child module's item named from its parent is an arrow to the child;
    // a method's turbofish and a name that is no child are not.
    let code = code_only("solve::run(args); let v = x.solve::<u8>(); other::f(); Command::Solve(solve::Args)");
    let children: BTreeSet<String> = ["solve".to_string()].into();
    let paths = named_paths(&code, &["cli".to_string()], &children);
    assert_eq!(paths, vec![s(&["cli", "solve", "run"]), s(&["cli", "solve", "Args"])]);
}

#[test]
fn the_checker_finds_a_parent_and_child_naming_each_other() {
    // A `mod.rs` that calls its child, and the child taking a helper from
    // the `mod.rs`: a cycle. The helper in a file of its own: none.
    let dir = std::env::temp_dir().join(format!("menace-architecture-{}", std::process::id()));
    let write = |rel: &str, text: &str| {
        let p = dir.join(rel);
        fs::create_dir_all(p.parent().expect("a folder")).expect("scratch folder");
        fs::write(p, text).expect("scratch file");
    };
    let cycle = |with_helper_apart: bool| {
        let _ = fs::remove_dir_all(&dir);
        write("main.rs", "mod cli;\nfn main() { cli::run() }\n");
        if with_helper_apart {
            write("cli/mod.rs", "mod args;\nmod solve;\npub fn run() { solve::run() }\n");
            write("cli/args.rs", "pub fn usage() {}\n");
            write(
                "cli/solve/mod.rs",
                "use crate::cli::args::usage;\npub fn run() { usage() }\n",
            );
        } else {
            write(
                "cli/mod.rs",
                "mod solve;\npub fn run() { solve::run() }\npub fn usage() {}\n",
            );
            write("cli/solve/mod.rs", "use super::usage;\npub fn run() { usage() }\n");
        }
        let mut files = Vec::new();
        collect(&dir, &mut files);
        find_cycle(&graph(&dir, &files))
    };
    assert_eq!(
        cycle(false),
        Some(vec![
            "src/cli/mod.rs".into(),
            "src/cli/solve/mod.rs".into(),
            "src/cli/mod.rs".into()
        ])
    );
    assert_eq!(cycle(true), None);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn every_file_stays_small_enough_to_read() {
    // A source file (Rust or the page's script) at most 800 lines, a page
    // module at most 500, a test file at most 1000.
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let over = |dirs: &[&str], ext: &[&str], most: usize| {
        let mut files = Vec::new();
        for d in dirs {
            collect_ending(&workspace.join(d), ext, &mut files);
        }
        assert!(files.len() > 5, "{dirs:?}: {} files", files.len());
        files
            .into_iter()
            .map(|p| (fs::read_to_string(&p).expect("a source file").lines().count(), p))
            .filter(|(n, _)| *n > most)
            .map(|(n, p)| format!("{} ({n} lines)", p.display()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        over(
            &[
                "src",
                "crates/menace-core/src",
                "crates/menace-web/src",
                "crates/menace-wasm/src",
                "xtask/src",
                "benches"
            ],
            &["rs", "js"],
            800
        ),
        Vec::<String>::new()
    );
    assert_eq!(over(&["src/web/page"], &["js"], 500), Vec::<String>::new());
    assert_eq!(over(&["tests"], &["rs"], 1000), Vec::<String>::new());
}
