//! The server on a network (issue 40): one address cannot take every
//! connection, a link from another site opens the page, and nothing else
//! another site asks is done.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};

use menace::web::server::Config;

use super::{addr_of, Server, PATIENCE};
use crate::common::http::wait_until;

/// A connection to `addr` from the local address `source` (a second
/// loopback address, 127.0.0.2, stands in for another device in the room).
pub(super) fn connect_from(source: &str, addr: SocketAddr) -> TcpStream {
    connect_with(source, addr, None)
}

/// A connection from `source` whose receive buffer is held to `bytes`
/// (the kernel's autotuning off), so that a reader that never reads
/// stalls the server's write however large the machine's buffers are.
pub(super) fn connect_with_window(source: &str, addr: SocketAddr, bytes: u32) -> TcpStream {
    connect_with(source, addr, Some(bytes))
}

fn connect_with(source: &str, addr: SocketAddr, receive_buffer: Option<u32>) -> TcpStream {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let stream = runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        if let Some(bytes) = receive_buffer {
            socket.set_recv_buffer_size(bytes).unwrap();
        }
        socket.bind(format!("{source}:0").parse().unwrap()).unwrap();
        socket.connect(addr).await.unwrap().into_std().unwrap()
    });
    stream.set_nonblocking(false).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    stream
}

/// A GET of `path` over `stream`: the whole answer, head and body ("" if
/// the server closed the connection without one).
fn get_over(mut stream: TcpStream, host: &str, path: &str, headers: &str) -> String {
    let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n{headers}Connection: close\r\n\r\n");
    // A connection closed at once may refuse the write: then there is no answer.
    if stream.write_all(request.as_bytes()).is_err() {
        return String::new();
    }
    let mut out = Vec::new();
    let _ = stream.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

fn status(answer: &str) -> u16 {
    answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

#[test]
fn one_address_cannot_take_every_connection() {
    let s = Server::with(Config {
        max_connections_per_address: 4,
        header_timeout: PATIENCE,
        ..Config::default()
    });
    let host = addr_of(&s);
    let addr: SocketAddr = host.parse().unwrap();
    // Four connections from one device, held open and silent (slow clients).
    let held: Vec<TcpStream> = (0..4).map(|_| connect_from("127.0.0.1", addr)).collect();
    // A fifth from it is closed unanswered ...
    let fifth = get_over(connect_from("127.0.0.1", addr), &host, "/api/games", "");
    assert_eq!(status(&fifth), 0, "{fifth}");
    // ... while another device is served.
    let other = get_over(connect_from("127.0.0.2", addr), &host, "/api/games", "");
    assert_eq!(status(&other), 200, "{other}");
    // One of the four let go: the first device is served again.
    drop(held);
    wait_until("a connection from 127.0.0.1 is served again", PATIENCE, || {
        status(&get_over(connect_from("127.0.0.1", addr), &host, "/api/games", "")) == 200
    });
}

#[test]
fn a_link_from_another_site_opens_the_page_and_nothing_else() {
    let s = Server::new();
    let host = addr_of(&s);
    let addr: SocketAddr = host.parse().unwrap();
    let get = |path: &str, headers: &str| get_over(connect_from("127.0.0.1", addr), &host, path, headers);
    // A link followed from a school's page (or a local HTML file): the page opens ...
    let navigation = "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: navigate\r\nSec-Fetch-Dest: document\r\n";
    let page = get("/", navigation);
    assert_eq!(status(&page), 200, "{page}");
    assert!(page.contains("<title>menace"), "the page itself");
    // ... and cannot be framed by the site that links to it.
    let head = page.split("\r\n\r\n").next().unwrap().to_ascii_lowercase();
    assert!(head.contains("x-frame-options: deny"), "{head}");
    assert!(
        head.contains("content-security-policy: frame-ancestors 'none'"),
        "{head}"
    );
    // Another site's script, image or link to anything but the page is refused.
    for (path, headers) in [
        (
            "/api/games",
            "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: cors\r\nSec-Fetch-Dest: empty\r\n",
        ),
        (
            "/",
            "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: no-cors\r\nSec-Fetch-Dest: iframe\r\n",
        ),
        (
            "/",
            "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: navigate\r\nSec-Fetch-Dest: iframe\r\n",
        ),
        ("/api/sessions/x/state", navigation),
    ] {
        let answer = get(path, headers);
        assert_eq!(status(&answer), 403, "{path} {headers}: {answer}");
    }
    // A cross-site POST, even one dressed as a navigation (a form), is refused.
    let mut stream = connect_from("127.0.0.1", addr);
    write!(
        stream,
        "POST /api/sessions HTTP/1.1\r\nHost: {host}\r\n{navigation}Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}"
    )
    .unwrap();
    let mut out = String::new();
    let _ = stream.read_to_string(&mut out);
    assert_eq!(status(&out), 403, "{out}");
}
