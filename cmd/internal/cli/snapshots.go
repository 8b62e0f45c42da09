package cli

// CheckSnapshots checks the training flags -snapshots (keep, the number
// of snapshots kept) and -snapshot-every (every, steps between the
// snapshots written without a dev evaluation), shared by asr train and
// caption train, and returns a usage error naming the flag at fault.
func CheckSnapshots(keep, every int) error {
	switch {
	case keep < 0:
		return Usagef("-snapshots %d: want 0 (none) or more", keep)
	case every < 0:
		return Usagef("-snapshot-every %d: want 0 (snapshots only after dev evaluations) or more steps", every)
	case every > 0 && keep == 0:
		return Usagef("-snapshot-every %d keeps nothing without -snapshots N", every)
	}
	return nil
}
