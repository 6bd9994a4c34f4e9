use super::*;

fn args_with_config(text: &str) -> (tempfile::TempDir, RunArgs) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("take6.toml");
    std::fs::write(&path, text).unwrap();
    let args = RunArgs {
        table: TableArgs {
            config: Some(path),
            ..TableArgs::default()
        },
        ..RunArgs::default()
    };
    (dir, args)
}

#[test]
fn flags_win_over_the_file_and_file_paths_are_relative_to_it() {
    let (dir, mut args) = args_with_config("games = 7\nseed = 5\nreply_ms = 20\nbots = \"b\"\n");
    args.games = Some(9);
    let s = Settings::resolve(&args).unwrap();
    assert_eq!(s.games, 9);
    assert_eq!((s.seed, s.seed_given), (5.into(), true));
    assert_eq!(s.reply_ms, 20);
    assert_eq!(s.first_reply_ms, 3000);
    assert_eq!(s.bots, dir.path().join("b"));
    assert_eq!(s.results, dir.path().join("results"));
}

#[test]
fn unknown_keys_and_zero_values_are_named_in_the_error() {
    let (_dir, args) = args_with_config("gmaes = 7\n");
    let err = Settings::resolve(&args).unwrap_err().to_string();
    assert!(err.contains("take6.toml") && err.contains("gmaes"), "{err}");
    let (_dir, args) = args_with_config("jobs = 0\n");
    let err = Settings::resolve(&args).unwrap_err().to_string();
    assert!(err.contains("jobs = 0"), "{err}");
}

#[test]
fn numbers_out_of_range_name_the_flag_or_key_the_range_and_the_value() {
    let err = |args: &RunArgs| Settings::resolve(args).unwrap_err().to_string();
    let (_dir, args) = args_with_config("");
    let flags = [
        (
            RunArgs {
                games: Some(u64::MAX),
                ..args.clone()
            },
            "--games 18446744073709551615 is out of range: use a value from 1 to 100000000",
        ),
        (
            RunArgs {
                table: TableArgs {
                    memory_mib: Some(17_592_186_044_416),
                    ..args.table.clone()
                },
                ..args.clone()
            },
            "--memory-mib 17592186044416 is out of range: use a value from 16 to 1048576",
        ),
        (
            RunArgs {
                jobs: Some(usize::MAX),
                ..args.clone()
            },
            "--jobs 18446744073709551615 is out of range: use a value from 1 to 1024",
        ),
        (
            RunArgs {
                table: TableArgs {
                    reply_ms: Some(0),
                    ..args.table.clone()
                },
                ..args.clone()
            },
            "--reply-ms 0 is out of range: use a value from 1 to 3600000",
        ),
        (
            RunArgs {
                table: TableArgs {
                    max_bot_mib: Some(0),
                    ..args.table.clone()
                },
                ..args.clone()
            },
            "--max-bot-mib 0 is out of range",
        ),
    ];
    for (args, expect) in flags {
        assert!(err(&args).contains(expect), "{}", err(&args));
    }
    for (text, expect) in [
        ("games = 100000001\n", "games = 100000001 in "),
        ("first_reply_ms = 3600001\n", "first_reply_ms = 3600001 in "),
        ("build_timeout_s = 0\n", "build_timeout_s = 0 in "),
        ("grace_ms = 99999999\n", "grace_ms = 99999999 in "),
        ("memory_mib = 8\n", "memory_mib = 8 in "),
        ("stderr_cap_kib = 1000000\n", "stderr_cap_kib = 1000000 in "),
        ("line_cap_bytes = 4\n", "line_cap_bytes = 4 in "),
        ("max_bot_mib = 100000\n", "max_bot_mib = 100000 in "),
    ] {
        let (_dir, args) = args_with_config(text);
        let err = err(&args);
        assert!(
            err.contains(expect) && err.contains("take6.toml is out of range"),
            "{text}: {err}"
        );
    }
    // The ends of the ranges are allowed; the flag wins over a bad file value.
    let (_dir, mut args) =
        args_with_config("games = 100000000\nmemory_mib = 16\ngrace_ms = 0\njobs = 0\n");
    args.jobs = Some(1024);
    let s = Settings::resolve(&args).unwrap();
    assert_eq!(
        (s.games, s.memory_mib, s.grace_ms, s.jobs),
        (100_000_000, 16, 0, 1024)
    );
    assert_eq!(s.max_bot_bytes(), 256 << 20);
    assert_eq!(s.sandbox_limits().memory_mib, 16);
}

#[test]
fn a_player_name_must_be_a_visible_single_word() {
    let (_dir, args) = args_with_config("");
    let play = |name: &str| PlayArgs {
        game: None,
        name: name.into(),
        against: Vec::new(),
        games: 1,
        table: args.table.clone(),
    };
    let err = Settings::resolve_play(&play("a\u{1b}b"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("--name") && err.contains("U+001B"), "{err}");
    assert!(Settings::resolve_play(&play("x/y")).is_err());
    assert_eq!(
        Settings::resolve_play(&play("ana"))
            .unwrap()
            .human
            .as_deref(),
        Some("ana")
    );
}

#[test]
fn a_game_is_found_by_name_through_the_registry_and_an_unknown_one_names_the_known() {
    let (_dir, mut args) = args_with_config("game = \"kingdomino\"\n");
    let settings = Settings::resolve(&args).unwrap();
    assert_eq!(settings.game.name(), "kingdomino");
    // Its seats, limits and what it supports come from the game.
    assert_eq!((settings.players, settings.reply_ms), (4, 50));
    args.table.rounds = Some(2);
    let err = Settings::resolve(&args).unwrap_err().to_string();
    assert!(err.contains("in a Kingdomino series"), "{err}");
    args.table.rounds = None;
    args.game = Some("chess".into());
    let err = Settings::resolve(&args).unwrap_err().to_string();
    assert!(
        err.contains("'chess'") && err.contains("take6, kingdomino") && err.contains("--game"),
        "{err}"
    );
}

#[test]
fn a_missing_config_file_or_template_folder_is_an_error() {
    let args = RunArgs {
        table: TableArgs {
            config: Some("/no/such/take6.toml".into()),
            ..TableArgs::default()
        },
        ..RunArgs::default()
    };
    let err = Settings::resolve(&args).unwrap_err().to_string();
    assert!(err.contains("/no/such/take6.toml"), "{err}");
    let (_dir, mut args) = args_with_config("");
    args.table.templates = Some("/no/such/templates".into());
    let err = Settings::resolve(&args).unwrap_err().to_string();
    assert!(err.contains("/no/such/templates"), "{err}");
}

#[test]
fn the_wall_factor_follows_the_table_size_up_to_ten() {
    assert_eq!(default_wall_factor(2), 6);
    assert_eq!(default_wall_factor(5), 9);
    assert_eq!(default_wall_factor(10), 10);
    let (_dir, mut args) = args_with_config("");
    args.table.players = Some(2);
    assert_eq!(Settings::resolve(&args).unwrap().wall_factor, 6);
    args.table.wall_factor = Some(7);
    assert_eq!(Settings::resolve(&args).unwrap().wall_factor, 7);
}
