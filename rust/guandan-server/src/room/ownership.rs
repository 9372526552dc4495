//! Each part of the room is changed only in its own file (issue 57): no other file assigns to
//! its fields or borrows them mutably; they go through its methods. The compiler keeps most
//! parts' fields private to their file; this test holds the room's own fields (mod.rs) and its
//! settings (stored.rs: read everywhere, changed through `Stored`'s methods) the same way, and
//! keeps the rest so should a field be opened to the other files.

/// The file that owns each of `Room`'s fields.
fn owner(field: &str) -> Option<&'static str> {
    Some(match field {
        "code" | "app" | "tx" | "rules" | "state" | "closing" | "closed" => "mod.rs",
        "stored" => "stored.rs",
        "seats" => "seats.rs",
        "members" => "members.rs",
        "lobby" => "lobby.rs",
        "play" => "play.rs",
        "pace" => "pace.rs",
        "delay" => "spectators.rs",
        "rematch" => "rematch.rs",
        "claims" => "claims.rs",
        _ => return None,
    })
}

const FILES: [(&str, &str); 12] = [
    ("mod.rs", include_str!("mod.rs")),
    ("claims.rs", include_str!("claims.rs")),
    ("lobby.rs", include_str!("lobby.rs")),
    ("members.rs", include_str!("members.rs")),
    ("pace.rs", include_str!("pace.rs")),
    ("play.rs", include_str!("play.rs")),
    ("rematch.rs", include_str!("rematch.rs")),
    ("restore.rs", include_str!("restore.rs")),
    ("seating.rs", include_str!("seating.rs")),
    ("seats.rs", include_str!("seats.rs")),
    ("spectators.rs", include_str!("spectators.rs")),
    ("stored.rs", include_str!("stored.rs")),
];

/// The room fields a line of code changes: `self.FIELD… =` (or `+=`, `-=`) and `&mut self.FIELD…`.
fn changed_fields(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("self.") {
        let before = &rest[..at];
        let after = &rest[at + "self.".len()..];
        let path_len = after.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.')).unwrap_or(after.len());
        let path = &after[..path_len];
        let tail = after[path_len..].trim_start();
        let assigned =
            (tail.starts_with('=') && !tail.starts_with("==")) || tail.starts_with("+=") || tail.starts_with("-=");
        let borrowed = before.trim_end().ends_with("&mut");
        // A method call (`self.x.y(`) is not a field: `&mut self.seats.iter()` borrows its result.
        let field_path = !after[path_len..].starts_with('(');
        if (assigned || borrowed) && field_path {
            found.push(path.split('.').next().unwrap_or_default().to_string());
        }
        rest = after;
    }
    found
}

/// The lines inside `impl Room` blocks (where `self` is the room), with their numbers.
fn room_lines(text: &str) -> Vec<(usize, &str)> {
    let mut lines = Vec::new();
    let mut depth: Option<i32> = None;
    for (n, line) in text.lines().enumerate() {
        if depth.is_none() && line.starts_with("impl Room {") {
            depth = Some(0);
        }
        if let Some(d) = &mut depth {
            lines.push((n, line));
            *d += line.matches('{').count() as i32 - line.matches('}').count() as i32;
            if *d <= 0 {
                depth = None;
            }
        }
    }
    lines
}

#[test]
fn each_file_of_the_room_changes_only_the_state_it_owns() {
    let mut wrong = Vec::new();
    for (file, text) in FILES {
        for (n, line) in room_lines(text) {
            for field in changed_fields(line) {
                if let Some(owner) = owner(&field)
                    && owner != file
                {
                    wrong.push(format!("{file}:{} changes `{field}` (owned by {owner}): {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "a part changed outside its file (use its methods):\n{}", wrong.join("\n"));
}

#[test]
fn a_change_is_found_and_a_read_is_not() {
    assert_eq!(changed_fields("        self.stored.host = p.id.clone();"), ["stored"]);
    assert_eq!(changed_fields("self.state = RoomState::Destroyed;"), ["state"]);
    assert_eq!(changed_fields("let g = &mut self.play.game else"), ["play"]);
    assert_eq!(changed_fields("self.lobby.x += 1"), ["lobby"]);
    assert!(changed_fields("if self.state == RoomState::Waiting {").is_empty());
    assert!(changed_fields("let h = self.stored.host.clone();").is_empty());
    assert!(changed_fields("self.seats.sit(seat, player, conn);").is_empty());
    // Only inside `impl Room`: a part's own `self.seats = …` (the settings' lineup) is its own.
    let text = "impl Stored {\n    fn f(&mut self) {\n        self.seats = x;\n    }\n}\nimpl Room {\n    fn g(&mut self) {\n        self.state = s;\n    }\n}\n";
    let seen: Vec<usize> = room_lines(text).iter().map(|(n, _)| *n).collect();
    assert_eq!(seen, [5, 6, 7, 8, 9]);
}
