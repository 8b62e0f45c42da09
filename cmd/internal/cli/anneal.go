package cli

// CheckAnneal checks the training flag -anneal (steps over which the
// learning rate falls to zero after the warm-up), shared by asr train and
// caption train, and returns a usage error naming it when it is negative.
func CheckAnneal(steps int) error {
	if steps < 0 {
		return Usagef("-anneal %d: want 0 (a constant learning rate after the warm-up) or more steps", steps)
	}
	return nil
}
