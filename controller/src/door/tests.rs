use super::*;
use std::os::unix::fs::symlink;
use std::time::{Duration, Instant};

fn fifo(path: &Path) {
    nix::unistd::mkfifo(path, Mode::from_bits_truncate(0o666)).unwrap();
}

/// A file only the test's "host" holds, outside the folder.
fn canary(tmp: &Path) -> PathBuf {
    let c = tmp.join("canary");
    std::fs::write(&c, "host secret").unwrap();
    c
}

#[test]
fn links_out_of_the_folder_are_never_followed_for_reading() {
    let tmp = tempfile::tempdir().unwrap();
    let canary = canary(tmp.path());
    let dir = tmp.path().join("bot");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    symlink(&canary, dir.join("abs")).unwrap();
    symlink("../canary", dir.join("rel")).unwrap();
    symlink("/proc/self/cwd/canary", dir.join("magic")).unwrap();
    symlink("..", dir.join("up")).unwrap();
    symlink("sub", dir.join("inside")).unwrap();
    std::fs::write(dir.join("sub/ok"), "fine").unwrap();
    let folder = Folder::open(&dir).unwrap();
    for name in ["abs", "rel", "magic", "up/canary", "inside/ok"] {
        let err = folder.read(Path::new(name), 100).unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{name}: {err}");
    }
    for name in ["../canary", "/etc/passwd", "sub/../../canary"] {
        let err = folder.read(Path::new(name), 100).unwrap_err();
        assert!(
            err.to_string().contains("below the folder"),
            "{name}: {err}"
        );
    }
    assert_eq!(folder.read(Path::new("sub/ok"), 100).unwrap(), b"fine");
    let err = folder.read(Path::new("missing"), 100).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::NotFound);
    assert_eq!(folder.read_if_any(Path::new("missing"), 9).unwrap(), None);
}

#[test]
fn the_walk_without_openat2_refuses_links_the_same_way() {
    let tmp = tempfile::tempdir().unwrap();
    let canary = canary(tmp.path());
    let dir = tmp.path().join("bot");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/ok"), "fine").unwrap();
    symlink(&canary, dir.join("abs")).unwrap();
    symlink(tmp.path(), dir.join("out")).unwrap();
    let folder = Folder::open(&dir).unwrap();
    let open = |rel: &str| {
        let names = names(Path::new(rel)).unwrap();
        walk(
            &folder.fd,
            &names,
            OFlag::O_RDONLY | OFlag::O_NOFOLLOW,
            Mode::empty(),
        )
    };
    assert_eq!(open("abs").unwrap_err(), Errno::ELOOP);
    assert_eq!(open("out/canary").unwrap_err(), Errno::ELOOP);
    assert!(open("sub/ok").is_ok());
}

#[test]
fn special_files_are_refused_at_once_never_waited_on() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fifo(&dir.join("pipe"));
    std::fs::create_dir(dir.join("folder")).unwrap();
    let folder = Folder::open(dir).unwrap();
    let started = Instant::now();
    let err = folder.read(Path::new("pipe"), 100).unwrap_err();
    assert!(err.to_string().contains("FIFO"), "{err}");
    let err = folder.open_append(Path::new("pipe")).unwrap_err();
    assert!(err.to_string().contains("FIFO"), "{err}");
    let err = folder.open_write(Path::new("pipe")).unwrap_err();
    assert!(err.to_string().contains("FIFO"), "{err}");
    let err = folder.read(Path::new("folder"), 100).unwrap_err();
    assert!(err.to_string().contains("folder"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn reads_stop_at_their_cap() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("big"), vec![b'x'; 5000]).unwrap();
    let folder = Folder::open(tmp.path()).unwrap();
    let err = folder.read(Path::new("big"), 4999).unwrap_err();
    assert!(err.to_string().contains("4999 bytes"), "{err}");
    assert_eq!(folder.read(Path::new("big"), 5000).unwrap().len(), 5000);
    assert_eq!(folder.head(Path::new("big"), 10).unwrap().len(), 10);
}

#[test]
fn replacing_a_link_replaces_the_link_and_never_writes_through_it() {
    let tmp = tempfile::tempdir().unwrap();
    let canary = canary(tmp.path());
    let dir = tmp.path().join("bot");
    std::fs::create_dir(&dir).unwrap();
    symlink(&canary, dir.join("data")).unwrap();
    let folder = Folder::open(&dir).unwrap();
    folder.replace(Path::new("data"), b"new", true).unwrap();
    assert_eq!(std::fs::read(&canary).unwrap(), b"host secret");
    assert!(
        std::fs::symlink_metadata(dir.join("data"))
            .unwrap()
            .is_file()
    );
    assert_eq!(std::fs::read(dir.join("data")).unwrap(), b"new");
    // Nothing is left beside it.
    let names: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(names.len(), 1);
    // Its temporary names cannot be guessed: two differ in 128 random bits.
    let (a, b) = (temp_name(OsStr::new("x")), temp_name(OsStr::new("x")));
    assert_ne!(a, b);
    assert_eq!(a.len(), ".x.".len() + 32 + ".partial".len());
}

#[test]
fn files_written_in_place_must_have_one_name_and_fresh_files_are_fresh() {
    let tmp = tempfile::tempdir().unwrap();
    let canary = canary(tmp.path());
    let dir = tmp.path().join("results");
    std::fs::create_dir(&dir).unwrap();
    std::fs::hard_link(&canary, dir.join("log")).unwrap();
    symlink(&canary, dir.join("linked")).unwrap();
    let folder = Folder::open(&dir).unwrap();
    let err = folder.open_append(Path::new("log")).unwrap_err();
    assert!(err.to_string().contains("hard links"), "{err}");
    let err = folder.open_append(Path::new("linked")).unwrap_err();
    assert!(err.to_string().contains("symbolic link"), "{err}");
    let err = folder.create_new(Path::new("linked"), 0o644).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::AlreadyExists, "{err}");
    assert_eq!(std::fs::read(&canary).unwrap(), b"host secret");
    let mut f = folder.open_append(Path::new("fresh.log")).unwrap();
    f.write_all(b"a").unwrap();
    folder.remove(Path::new("linked")).unwrap();
    assert!(canary.exists());
    assert_eq!(folder.kind_of(Path::new("linked")).unwrap(), None);
    assert_eq!(
        folder.kind_of(Path::new("log")).unwrap(),
        Some("a regular file")
    );
}

#[test]
fn a_working_copy_or_its_work_folder_that_is_a_link_is_refused_and_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let host = tmp.path().join("host");
    std::fs::create_dir_all(host.join("bot")).unwrap();
    std::fs::write(host.join("bot/secret"), "host secret").unwrap();
    let series = tmp.path().join("series");
    std::fs::create_dir_all(series.join("work/.images")).unwrap();
    let workdir = series.join("work/bot");
    let image = series.join("work/.images/bot.ext4");
    // Nothing there yet; then a folder; then its image only.
    let nothing = CopyThere {
        folder: false,
        image: false,
    };
    assert_eq!(working_copy_there(&workdir, &image).unwrap(), nothing);
    std::fs::create_dir(&workdir).unwrap();
    assert!(working_copy_there(&workdir, &image).unwrap().folder);
    assert!(working_copy(&workdir).is_ok());
    std::fs::remove_dir(&workdir).unwrap();
    std::fs::write(&image, "").unwrap();
    assert!(working_copy_there(&workdir, &image).unwrap().image);
    // The copy a link to the host's folder.
    symlink(host.join("bot"), &workdir).unwrap();
    for err in [
        working_copy_there(&workdir, &image).unwrap_err(),
        working_copy(&workdir).unwrap_err(),
    ] {
        assert!(err.to_string().contains("follows no link"), "{err}");
        assert!(err.to_string().contains("work/bot"), "{err}");
    }
    // `work` a link to the host's folder.
    std::fs::remove_file(&workdir).unwrap();
    std::fs::remove_dir_all(series.join("work")).unwrap();
    symlink(&host, series.join("work")).unwrap();
    for err in [
        working_copy_there(&workdir, &image).unwrap_err(),
        working_copy(&workdir).unwrap_err(),
        work_of(&workdir).unwrap_err(),
    ] {
        assert!(err.to_string().contains("follows no link"), "{err}");
    }
    assert_eq!(
        std::fs::read_to_string(host.join("bot/secret")).unwrap(),
        "host secret"
    );
}
