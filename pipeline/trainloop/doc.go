// Package trainloop is the training loop that asr train and caption train
// share, and that a third model would use: it owns the skeleton, the
// model supplies hooks (Task).
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
