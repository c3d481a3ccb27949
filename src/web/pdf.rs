//! Label sheets to one PDF: each SVG page is converted by `svg2pdf` (text
//! kept as text, the shipped DejaVu Sans subset and embedded) and placed on
//! a page of the paper's size. (The page file prints the same pages through
//! the browser instead: this converter stays out of the WebAssembly.)

use std::collections::HashMap;

use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, TextStr};
use svg2pdf::usvg;

use crate::web::font::FONT_BYTES;
use crate::web::labels::{sheet_of_state, LabelError, Paper, Sheet};

/// Points in a millimetre.
pub const PT_PER_MM: f64 = 72.0 / 25.4;

/// The one font the pages may use: the shipped one, never a system font, so
/// every machine makes the same file.
fn options() -> usvg::Options<'static> {
    let mut options = usvg::Options {
        font_family: "DejaVu Sans".to_string(),
        ..usvg::Options::default()
    };
    options.fontdb_mut().load_font_data(FONT_BYTES.to_vec());
    options
}

/// A sheet as one PDF.
pub fn sheet_pdf(sheet: &Sheet) -> Result<Vec<u8>, LabelError> {
    let (w, h) = sheet.paper.size_mm();
    to_pdf(&sheet.pages, w, h, &sheet.title)
}

/// The PDF of the machine in a state file's text (as `menace train --save`
/// writes it), on `paper`, labels of the default size: what the page's
/// labels link downloads from `menace serve`.
pub fn pdf_of_state(text: &str, paper: Paper) -> Result<Vec<u8>, LabelError> {
    sheet_pdf(&sheet_of_state(text, paper)?)
}

/// A PDF of `pages` (whole SVG documents, each sized in millimetres as
/// `width_mm` × `height_mm`), titled `title`.
pub fn to_pdf(pages: &[String], width_mm: f64, height_mm: f64, title: &str) -> Result<Vec<u8>, LabelError> {
    let options = options();
    let mut alloc = Ref::new(1);
    let catalog = alloc.bump();
    let tree_ref = alloc.bump();
    let info = alloc.bump();
    let mut pdf = Pdf::new();
    let (w, h) = ((width_mm * PT_PER_MM) as f32, (height_mm * PT_PER_MM) as f32);
    let mut kids = Vec::with_capacity(pages.len());
    for (i, svg) in pages.iter().enumerate() {
        let tree = usvg::Tree::from_str(svg, &options)
            .map_err(|e| LabelError::Pdf(format!("page {}: the SVG does not parse: {e}", i + 1)))?;
        let (chunk, root) = svg2pdf::to_chunk(&tree, svg2pdf::ConversionOptions::default())
            .map_err(|e| LabelError::Pdf(format!("page {}: {e}", i + 1)))?;
        let mut map = HashMap::new();
        let chunk = chunk.renumber(|old| *map.entry(old).or_insert_with(|| alloc.bump()));
        let root = map
            .get(&root)
            .copied()
            .ok_or_else(|| LabelError::Pdf(format!("page {}: the converted page lost its root", i + 1)))?;
        let page = alloc.bump();
        let content = alloc.bump();
        let name = Name(b"P");
        let mut writer = pdf.page(page);
        writer.media_box(Rect::new(0.0, 0.0, w, h));
        writer.parent(tree_ref);
        writer.contents(content);
        writer.resources().x_objects().pair(name, root);
        writer.finish();
        // The converted SVG is a 1 pt square: stretch it over the page.
        let mut stream = Content::new();
        stream.transform([w, 0.0, 0.0, h, 0.0, 0.0]).x_object(name);
        pdf.stream(content, &stream.finish());
        pdf.extend(&chunk);
        kids.push(page);
    }
    pdf.catalog(catalog).pages(tree_ref);
    pdf.pages(tree_ref).kids(kids.iter().copied()).count(kids.len() as i32);
    pdf.document_info(info)
        .title(TextStr(title))
        .producer(TextStr("menace (svg2pdf)"));
    Ok(pdf.finish())
}
