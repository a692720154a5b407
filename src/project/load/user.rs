//! The local user a job is submitted as when its configuration names none.

/// The local user's name, as Java's `user.name` (which the Oozie client
/// sends) has it: `$USER` or `$LOGNAME`, else the name the password file
/// gives this process's user (a container often sets neither variable).
pub(super) fn local_user() -> Option<String> {
    if let Some(user) = ["USER", "LOGNAME"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|u| !u.is_empty()))
    {
        return Some(user);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let uid = std::fs::metadata("/proc/self").ok()?.uid().to_string();
        let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
        passwd.lines().find_map(|line| {
            let mut fields = line.split(':');
            let name = fields.next()?;
            (fields.nth(1)? == uid).then(|| name.to_string())
        })
    }
    #[cfg(not(unix))]
    None
}
