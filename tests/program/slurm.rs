//! The committed Slurm array job, run end to end on a real one-node Slurm
//! cluster that this test starts (munged, slurmctld, slurmd from Debian's
//! packages, which `.ci/run` installs) and stops: submitted as committed
//! from a clone's root, merged with the command `docs/experiments.md` gives,
//! compared byte for byte with an unsharded run; then one task cancelled,
//! the merge refused with that shard named, the task rerun as the guide
//! says, and merged equal.
//!
//! Ignored in the fast tier: it needs Slurm and root (slurmd runs as root).
//! Run with `--include-ignored` (as `.ci/run` does) without them, it fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const PROGRAMS: [&str; 6] = [
    "/usr/sbin/munged",
    "/usr/sbin/slurmctld",
    "/usr/sbin/slurmd",
    "/usr/bin/sbatch",
    "/usr/bin/squeue",
    "/usr/bin/scontrol",
];

/// Why this machine cannot run the test, if it cannot.
fn unavailable() -> Option<String> {
    let missing: Vec<&str> = PROGRAMS.iter().copied().filter(|p| !Path::new(p).exists()).collect();
    if !missing.is_empty() {
        return Some(format!(
            "missing {} (apt-get install slurmctld slurmd slurm-client munge)",
            missing.join(", ")
        ));
    }
    if unsafe { libc::geteuid() } != 0 {
        return Some("not root: slurmd must run as root".into());
    }
    None
}

fn output(cmd: &mut Command) -> Output {
    let o = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        o.status.success(),
        "{cmd:?} failed: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// A port no one listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Wait, polling, until `done` holds; the limit only stops a broken cluster
/// from hanging the run (the test does not depend on how fast it is).
fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "gave up waiting for {what} after {limit:?}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// A one-node cluster in a scratch folder, on 127.0.0.1 whatever the host
/// name resolves to; its daemons stop when it drops, even when the test fails.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
    started_munge: bool,
}

impl Cluster {
    fn start(dir: &Path) -> Cluster {
        std::fs::create_dir_all(dir.join("state")).unwrap();
        std::fs::create_dir_all(dir.join("spool")).unwrap();
        // munge authenticates Slurm's messages; one already running is used.
        let socket = Path::new("/run/munge/munge.socket.2");
        let started_munge = !socket.exists();
        if started_munge {
            std::fs::create_dir_all("/run/munge").unwrap();
            output(Command::new("chown").args(["munge:munge", "/run/munge"]));
            output(Command::new("runuser").args(["-u", "munge", "--", "/usr/sbin/munged"]));
        }
        // The node's line as slurmd sees this machine.
        let node = text(&output(Command::new("/usr/sbin/slurmd").arg("-C")));
        let node = node.lines().next().unwrap().to_string();
        let host = node
            .strip_prefix("NodeName=")
            .and_then(|r| r.split_whitespace().next())
            .unwrap()
            .to_string();
        let d = dir.display();
        let conf = format!(
            "ClusterName=menace-test\n\
             SlurmctldHost={host}(127.0.0.1)\n\
             SlurmUser=root\n\
             SlurmctldPort={ctld}\n\
             SlurmdPort={slurmd}\n\
             SlurmctldPidFile={d}/slurmctld.pid\n\
             SlurmdPidFile={d}/slurmd.pid\n\
             SlurmctldLogFile={d}/slurmctld.log\n\
             SlurmdLogFile={d}/slurmd.log\n\
             StateSaveLocation={d}/state\n\
             SlurmdSpoolDir={d}/spool\n\
             ProctrackType=proctrack/linuxproc\n\
             TaskPlugin=task/none\n\
             SelectType=select/cons_tres\n\
             MailProg=/bin/true\n\
             SchedulerParameters=batch_sched_delay=0\n\
             ReturnToService=2\n\
             {node} NodeAddr=127.0.0.1 State=UNKNOWN\n\
             PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n",
            ctld = free_port(),
            slurmd = free_port(),
        );
        let conf_path = dir.join("slurm.conf");
        std::fs::write(&conf_path, conf).unwrap();
        let cluster = Cluster {
            dir: dir.to_path_buf(),
            conf: conf_path,
            started_munge,
        };
        output(&mut cluster.cmd("/usr/sbin/slurmctld"));
        output(&mut cluster.cmd("/usr/sbin/slurmd"));
        wait_for("the node to be idle", Duration::from_secs(60), || {
            let o = cluster.cmd("sinfo").args(["-h", "-o", "%t"]).output().unwrap();
            text(&o) == "idle"
        });
        cluster
    }

    /// A Slurm command (or daemon) for this cluster.
    fn cmd(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("SLURM_CONF", &self.conf);
        c
    }

    /// Submit `args` from `dir`; the job's id.
    fn sbatch(&self, dir: &Path, args: &[&str]) -> String {
        text(&output(
            self.cmd("sbatch").arg("--parsable").args(args).current_dir(dir),
        ))
    }

    /// Wait until no task of `job` is queued or running.
    fn wait(&self, job: &str) {
        wait_for(&format!("job {job}"), Duration::from_secs(300), || {
            let o = self.cmd("squeue").args(["-h", "-j", job]).output().unwrap();
            o.status.success() && text(&o).is_empty()
        });
    }

    fn stop_daemon(&self, pid_file: &str) {
        let path = self.dir.join(pid_file);
        if let Some(pid) = std::fs::read_to_string(&path)
            .ok()
            .and_then(|p| p.trim().parse::<i32>().ok())
        {
            unsafe { libc::kill(pid, libc::SIGTERM) };
            // Gone once signal 0 can no longer reach it.
            let start = Instant::now();
            while unsafe { libc::kill(pid, 0) } == 0 && start.elapsed() < Duration::from_secs(20) {
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        let _ = std::fs::remove_file(path);
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.stop_daemon("slurmd.pid");
        self.stop_daemon("slurmctld.pid");
        if self.started_munge {
            if let Some(pid) = std::fs::read_to_string("/run/munge/munged.pid")
                .ok()
                .and_then(|p| p.trim().parse::<i32>().ok())
            {
                unsafe { libc::kill(pid, libc::SIGTERM) };
            }
        }
    }
}

/// Every file below `dir`, by its path relative to it, with its bytes.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            out.push((
                path.strip_prefix(dir).unwrap().to_path_buf(),
                std::fs::read(&path).unwrap(),
            ));
        }
    }
    out.sort();
    out
}

/// The guide's merge command, verbatim, with `menace` the built program.
fn readme_merge(clone: &Path) -> Output {
    let bin = Path::new(env!("CARGO_BIN_EXE_menace")).parent().unwrap().to_path_buf();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let readme = std::fs::read_to_string(clone.join("docs/experiments.md")).unwrap();
    let line = readme
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("menace merge results/sweep-shards/"))
        .expect("docs/experiments.md shows the merge of the Slurm shards");
    Command::new("sh")
        .args(["-c", line])
        .env("PATH", path)
        .current_dir(clone)
        .output()
        .unwrap()
}

#[test]
#[ignore = "needs Slurm and root (.ci/run installs Slurm)"]
fn the_committed_sbatch_script_runs_on_a_real_slurm() {
    if let Some(why) = unavailable() {
        panic!("the Slurm test cannot run: {why}");
    }
    let scratch = std::env::temp_dir().join(format!("menace-slurm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    // A clone of the repository as committed, with the built program where
    // the script looks for it (target/release/menace), not on the PATH.
    let clone = scratch.join("clone");
    output(
        Command::new("git")
            .args(["clone", "-q", env!("CARGO_MANIFEST_DIR")])
            .arg(&clone),
    );
    std::fs::create_dir_all(clone.join("target/release")).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_menace"), clone.join("target/release/menace")).unwrap();
    let cluster = Cluster::start(&scratch.join("cluster"));
    let script = "experiments/slurm/sweep.sbatch";

    // 1. Submitted as committed; merged with the README's command; equal to
    // an unsharded run, charts included.
    let job = cluster.sbatch(&clone, &[script]);
    cluster.wait(&job);
    for k in 1..=8 {
        let log = clone.join(format!("experiments/slurm/logs/sweep-{job}_{k}.out"));
        let log = std::fs::read_to_string(&log).unwrap_or_else(|e| panic!("{}: {e}", log.display()));
        assert!(log.contains(&format!("shard {k}/8")), "task {k}'s log: {log}");
        assert!(
            clone.join(format!("results/sweep-shards/{k}/shard.json")).is_file(),
            "task {k} finished"
        );
    }
    let merged = readme_merge(&clone);
    assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    output(
        Command::new(env!("CARGO_BIN_EXE_menace"))
            .args(["run", "experiments/sweep.json", "--out", "results/whole"])
            .current_dir(&clone),
    );
    let whole = files(&clone.join("results/whole"));
    assert!(whole.iter().any(|(p, _)| p.ends_with("curves.csv")) && whole.len() > 3);
    assert!(
        files(&clone.join("results/sweep")) == whole,
        "the merge differs from the unsharded run"
    );

    // 2. Task 5 of a second submission cancelled before it starts (the
    // array is held until then): the merge refuses, naming shard 5/8.
    std::fs::remove_dir_all(clone.join("results/sweep-shards")).unwrap();
    std::fs::remove_dir_all(clone.join("results/sweep")).unwrap();
    let job = cluster.sbatch(&clone, &["--hold", script]);
    output(cluster.cmd("scancel").arg(format!("{job}_5")));
    output(cluster.cmd("scontrol").args(["release", &job]));
    cluster.wait(&job);
    assert!(!clone.join("results/sweep-shards/5").exists(), "task 5 was cancelled");
    let refused = readme_merge(&clone);
    let e = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{e}");
    assert!(
        e.contains("200 of 1600 units are missing") && e.contains("no folder given holds shard 5/8"),
        "{e}"
    );
    assert!(!clone.join("results/sweep").exists(), "a refused merge writes nothing");

    // 3. The task rerun as the README says; the merge is equal again.
    let readme = std::fs::read_to_string(clone.join("docs/experiments.md")).unwrap();
    let rerun = format!("sbatch --array=5 {script}");
    assert!(readme.contains(&rerun), "docs/experiments.md shows the rerun: {rerun}");
    let job = cluster.sbatch(&clone, &["--array=5", script]);
    cluster.wait(&job);
    let merged = readme_merge(&clone);
    assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    assert!(
        files(&clone.join("results/sweep")) == whole,
        "the merge after the rerun differs"
    );

    drop(cluster);
    std::fs::remove_dir_all(&scratch).unwrap();
}
