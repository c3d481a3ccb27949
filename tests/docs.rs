//! The documentation checked against the program and against itself:
//! every ```` ```console ```` example in `README.md` and `docs/*.md` is run
//! as written and its output compared line by line (trycmd: a line `...`
//! stands for any lines, `[..]` for any text within a line, where output
//! varies, such as timings), and every relative link and image in the
//! Markdown files at the root and in `docs/` resolves, anchors included.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The Markdown files a reader meets: the root's and the guides'.
fn markdown_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [root().to_path_buf(), root().join("docs")] {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Each file's examples run in order, in a scratch folder of their own that
/// holds a copy of `experiments/`, as from a clone's root, so that the files
/// they write (machines, label sheets, charts) stay out of the clone and no
/// two files' examples share one. The only test of this crate that relies on
/// the working folder: the link check uses whole paths.
#[test]
fn documented_examples_run_as_written() {
    let mut files = 0;
    for file in markdown_files() {
        if !std::fs::read_to_string(&file).unwrap().contains("```console") {
            continue;
        }
        files += 1;
        let scratch = tempfile::tempdir().unwrap();
        copy_dir(&root().join("experiments"), &scratch.path().join("experiments"));
        std::env::set_current_dir(scratch.path()).unwrap();
        trycmd::TestCases::new()
            .register_bin("menace", PathBuf::from(env!("CARGO_BIN_EXE_menace")))
            // The paper a label sheet defaults to follows the locale: A4 here.
            .env("LC_ALL", "C")
            .timeout(Duration::from_secs(300))
            .case(&file)
            .run();
        std::env::set_current_dir(root()).unwrap();
    }
    assert!(
        files >= 5,
        "only {files} files with examples: README.md and the guides have them"
    );
}

/// The README is the front door: read in five minutes.
#[test]
fn the_readme_is_short() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 250,
        "README.md has {lines} lines; the guides in docs/ hold the rest"
    );
}

/// `text` without its fenced and indented code blocks and inline code:
/// what a Markdown renderer reads links from.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    let mut previous_blank = true;
    let mut indented = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        indented = line.starts_with("    ") && (indented || previous_blank);
        previous_blank = line.trim().is_empty();
        if fenced || indented {
            continue;
        }
        // Inline code spans hold no links.
        let mut in_code = false;
        for c in line.chars() {
            if c == '`' {
                in_code = !in_code;
            } else if !in_code {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

/// The targets of the links and images in `text`: `[..](target)`.
fn link_targets(text: &str) -> Vec<String> {
    let prose = prose(text);
    let mut targets = Vec::new();
    let mut rest = prose.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let end = after.find(')').unwrap_or(after.len());
        let target = after[..end].split_whitespace().next().unwrap_or("");
        targets.push(target.to_string());
        rest = &after[end..];
    }
    targets
}

/// The anchors GitHub makes for a file's headings: lower case, letters,
/// digits, `-` and `_` kept, spaces made `-`, the rest dropped; a repeated
/// heading gets `-1`, `-2`, ...
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        if fenced {
            continue;
        }
        let heading = heading.trim_start_matches('#').trim();
        let slug: String = heading
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let mut anchor = slug.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{slug}-{n}");
        }
        seen.insert(anchor);
    }
    seen
}

#[test]
fn every_relative_link_resolves() {
    let mut checked = 0;
    let mut broken = Vec::new();
    for file in markdown_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.strip_prefix(root()).unwrap().display().to_string();
        for target in link_targets(&text) {
            if target.starts_with("http://") || target.starts_with("https://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let dest = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            if !dest.exists() {
                broken.push(format!("{name}: {target}: no such file"));
                continue;
            }
            if let Some(anchor) = anchor {
                let dest_text = std::fs::read_to_string(&dest).unwrap();
                if !anchors(&dest_text).contains(anchor) {
                    broken.push(format!("{name}: {target}: no such heading"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(checked > 20, "only {checked} links found: is the parser right?");
}

#[test]
fn anchors_follow_githubs_rule() {
    let text = "# Reference\n## The classroom page's server: `menace serve`\n## Files\n## Files\n";
    let found = anchors(text);
    for anchor in [
        "reference",
        "the-classroom-pages-server-menace-serve",
        "files",
        "files-1",
    ] {
        assert!(found.contains(anchor), "{anchor}: {found:?}");
    }
    assert_eq!(
        link_targets("see [a](a.md#x) and `[b](no.md)`, ![c](p.png)\n\n    [d](code.md)\n"),
        ["a.md#x", "p.png"]
    );
}
