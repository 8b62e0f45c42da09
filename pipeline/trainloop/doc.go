// Package trainloop is the training loop that asr train and caption train
// share, and that a third model would use: it owns the skeleton, the
// model supplies hooks (Task).
//
// # Set-up
//
// Every trainer's options embed Setup (output directory, resume,
// overwrite, init, schedule, checkpoints, snapshots, workers, seed), with
// the trainer's own defaults (Setup.SetDefaults). Setup.Start decides how
// a run starts, with one set of errors for every trainer:
//
//	Resume and Overwrite              ErrResumeOverwrite
//	Resume, no OutDir/LastName        ErrNothingToResume
//	Resume                            FromCheckpoint
//	OutDir/LastName and no Overwrite  ErrCheckpointExists
//	Init                              FromInit
//	otherwise                         Fresh
//
// Setup.Begin then switches bfloat16 products on, opens the log and
// prepares the snapshots; Setup.LoopOptions and Setup.Adam give Run and
// the optimizer their options.
//
// # The loop
//
//	for each epoch (from where the checkpoint stands):
//	    Task.Plan(epoch)                         the epoch's batches, seeded
//	    for each batch not yet done:
//	        Task.Train(epoch, i); Adam step      gradients, then the update
//	        every LogEvery steps: a progress line (Task.Progress)
//	        every EvalEvery steps: evaluate      (if EvalEvery > 0)
//	        every CheckpointEvery: checkpoint
//	    Task.EpochDone; evaluate                 (if EvalEvery = 0)
//	    checkpoint at the start of the next epoch
//
// Evaluating calls Task.Evaluate; an improvement (or the first
// evaluation) writes best.safetensors, DecayPatience evaluations without
// one halve the learning rate and Patience of them stop the run; each
// evaluation leaves a snapshot (Snapshots) and is reported to
// Task.Evaluated. The run also stops after Epochs, or MaxSteps, or when
// its context is cancelled, which writes a checkpoint first: a killed
// run loses at most CheckpointEvery of work.
//
// Adam's learning rate (AdamOptions) rises linearly over the warm-up
// steps to its peak, times the plateau decay factor State.LRScale.
//
// # Data parallelism
//
// With Setup.Comm (MPI ranks, package internal/mpi under -tags mpi) the
// run is one of N processes that train the same plan: each task's Train
// runs this rank's share of the batch (Setup.Ranks), its loss divided by
// the whole batch's counts; Run then sums the gradients over the ranks
// (one allreduce of every gradient, in Params order) and the ranks' batch
// numbers, and every rank takes the same optimizer step. Rank 0 alone
// evaluates dev (the value is broadcast, so that decay and stopping agree)
// and writes OutDir; an interrupt on any rank stops every rank after the
// same batch; every rank must start from rank 0's state and weights
// (checked: a checkpoint on a shared file system, or the same seed).
//
// # Checkpoints
//
// OutDir/last.safetensors is the model (Task.File), the optimizer's
// moments (adam.m/NAME, adam.v/NAME) and, as JSON metadata under
// "attend.train", Task.CheckpointState: the State, and whatever the task
// keeps with it (a caption run's dev history, a speech run's best WER), so
// that a resumed run replays the same plan from the same batch with the
// same optimizer state. Each task keeps the JSON names its checkpoints
// have always had. OpenLog appends the run's log to OutDir/train.log.
package trainloop
