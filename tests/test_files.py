"""tools.files.read_user_file: consent, one open checked on the descriptor, bounded reads, clear errors."""

import os
import threading

import pytest

from llm_inference_fundamentals.tools.errors import PathNotAllowedError, UnreadableFileError
from llm_inference_fundamentals.tools.files import read_user_file, readable_folders, reading_policy

SECRET = b"TOP SECRET 4242\n"


@pytest.fixture
def folders(tmp_path):
    inside, outside = tmp_path / "inside", tmp_path / "outside"
    inside.mkdir()
    outside.mkdir()
    (inside / "ok.md").write_bytes(b"# fine\n")
    (outside / "secret.md").write_bytes(SECRET)
    return inside, outside


def test_the_command_line_reads_any_path_the_user_names(folders):
    _, outside = folders
    assert reading_policy() is None
    assert read_user_file(str(outside / "secret.md"), field="path", max_bytes=1000) == SECRET


def test_inside_a_policy_only_granted_folders_are_read(folders):
    inside, outside = folders
    with readable_folders([inside]):
        assert read_user_file(str(inside / "ok.md"), field="path", max_bytes=1000) == b"# fine\n"
        with pytest.raises(PathNotAllowedError) as refused:
            read_user_file(str(outside / "secret.md"), field="path", max_bytes=1000)
    message = str(refused.value)
    assert "outside the folders this server may read" in message and "--allow-dir" in message
    assert "4242" not in message


def test_no_granted_folder_means_no_file_at_all(folders, monkeypatch):
    inside, _ = folders
    monkeypatch.chdir(inside)  # the working directory is no implicit root
    with readable_folders([]), pytest.raises(PathNotAllowedError, match="no folder has been granted"):
        read_user_file("ok.md", field="path", max_bytes=1000)


def test_a_symlink_out_of_a_granted_folder_is_refused(folders):
    inside, outside = folders
    (inside / "link.md").symlink_to(outside / "secret.md")
    with readable_folders([inside]), pytest.raises(PathNotAllowedError) as refused:
        read_user_file(str(inside / "link.md"), field="path", max_bytes=1000)
    assert "4242" not in str(refused.value)


def test_a_symlink_swapped_during_reads_never_yields_the_outside_file(folders):
    # Before: resolve-then-open raced, and 342-368 of 3,000 calls per tool read the outside file.
    inside, outside = folders
    link = inside / "flip.md"
    link.symlink_to(inside / "ok.md")
    stop = threading.Event()

    def flip():
        targets = [outside / "secret.md", inside / "ok.md"]
        i = 0
        while not stop.is_set():
            tmp = inside / f".flip{i % 2}"
            tmp.unlink(missing_ok=True)
            tmp.symlink_to(targets[i % 2])
            os.replace(tmp, link)
            i += 1

    flipper = threading.Thread(target=flip)
    flipper.start()
    leaked = read = refused = 0
    try:
        with readable_folders([inside]):
            for _ in range(3000):
                try:
                    data = read_user_file(str(link), field="path", max_bytes=1000)
                except (PathNotAllowedError, UnreadableFileError):
                    refused += 1
                    continue
                read += 1
                leaked += SECRET in data
    finally:
        stop.set()
        flipper.join()
    assert leaked == 0
    assert read > 0 and refused > 0  # the race really was exercised both ways


@pytest.mark.parametrize(("make", "expected"), [
    (lambda d: str(d / "a\x00b"), "NUL byte"),
    (lambda d: str(d / ("x" * 300)), "longer than 255 bytes"),
    (lambda d: "/" + "a/" * 2100, "the limit is 4,096"),
    (lambda d: str(d / "missing.md"), "does not exist"),
    (lambda d: str(d), "is a directory"),
    (lambda d: "", "empty"),
])
def test_malformed_or_missing_paths_are_clear_errors(folders, make, expected):
    inside, _ = folders
    with pytest.raises(UnreadableFileError, match=expected):
        read_user_file(make(inside), field="path", max_bytes=1000)


def test_a_symlink_loop_is_a_clear_error(folders):
    inside, _ = folders
    (inside / "loop1").symlink_to(inside / "loop2")
    (inside / "loop2").symlink_to(inside / "loop1")
    with pytest.raises(UnreadableFileError, match="symbolic link loop"):
        read_user_file(str(inside / "loop1"), field="path", max_bytes=1000)


@pytest.mark.parametrize("special", ["fifo", "/dev/zero", "/dev/null"])
def test_special_files_are_refused_without_blocking(folders, special):
    inside, _ = folders
    if special == "fifo":
        path = inside / "pipe"
        os.mkfifo(path)  # opening it for reading would block forever without O_NONBLOCK
        special = str(path)
    with pytest.raises(UnreadableFileError, match="not a regular file"):
        read_user_file(special, field="path", max_bytes=1000)


def test_a_file_over_the_cap_is_refused_not_truncated(folders):
    inside, _ = folders
    (inside / "big.json").write_bytes(b"x" * 5000)
    with pytest.raises(UnreadableFileError, match="5,000 bytes, over the 4,000-byte cap"):
        read_user_file(str(inside / "big.json"), field="path", max_bytes=4000)


def test_a_file_that_grows_while_read_stops_at_the_cap(folders, monkeypatch):
    # Before: a file growing during the audit's read was read to 377 MB past a 256 MiB cap.
    inside, _ = folders
    path = inside / "growing.jsonl"
    path.write_bytes(b"{}\n" * 10)
    real_set_blocking = os.set_blocking

    def grow_after_the_size_check(fd, flag):  # another writer appends between the check and the read
        with open(path, "ab") as handle:
            handle.write(b"{}\n" * 100_000)
        real_set_blocking(fd, flag)

    monkeypatch.setattr(os, "set_blocking", grow_after_the_size_check)
    with pytest.raises(UnreadableFileError, match="grew past the limit of 1,000 bytes"):
        read_user_file(str(path), field="path", max_bytes=1000)


def test_errors_name_the_argument_as_the_caller_spells_it(folders):
    from llm_inference_fundamentals.tools.errors import argument_names

    inside, _ = folders
    with argument_names({"config_path": "--config"}), pytest.raises(UnreadableFileError, match="^--config: "):
        read_user_file(str(inside / "missing.json"), field="config_path", max_bytes=10)


def test_a_path_outside_is_refused_before_it_is_looked_at(folders):
    # The same answer whether the outside file exists or not: no probing of the server's disk.
    inside, outside = folders
    with readable_folders([inside]):
        answers = []
        for name in ("secret.md", "missing.md"):
            with pytest.raises(PathNotAllowedError) as refused:
                read_user_file(str(outside / name), field="path", max_bytes=1000)
            answers.append(str(refused.value).replace(name, "NAME"))
    assert answers[0] == answers[1]
