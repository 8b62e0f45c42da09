package models

import (
	"errors"

	"gorgonia.org/gorgonia"
)

// Gorgonia identifies nodes by a 32-bit FNV hash of their type, shape, op
// and children's hashes, and trusts it more than it should (v0.9.18):
//
//   - the tape machine's compiler numbers values by that hash alone
//     (dataflow.vn in analysis.go): of two distinct nodes with one hash,
//     every reader of the second reads the first one's value, whatever
//     its shape;
//   - ExprGraph.AddNode returns an existing node for a new one with the
//     same hash, op hash, child count, type and shape, without comparing
//     the children, so the parents of two colliding nodes (a Sum of each,
//     say) become one node.
//
// A training graph of a long speller and its gradients holds tens of
// thousands of nodes, so the birthday bound (n²/2³³) makes a collision a
// matter of time: one hit a 5-layer speech model's {8, 232, 144} graph,
// whose first speller step then read a (8, 116) attention tensor as its
// (8, 64) embedding ("x (8, 628), Wx (576, 1024)"). Where the shapes
// agree, the result is silently wrong instead.
//
// Buckets.Get therefore scans every graph it builds for two distinct nodes
// with one hash (hashCollision) and Apply refuses a fused node that
// AddNode merged into another (errNodeMerged); either way the graph is
// built again. Every fused op's hash carries a fresh id (kernelIDs), so a
// rebuild hashes differently and nearly always succeeds the first time.

// maxHashRebuilds bounds the rebuilds of one graph for hash collisions.
const maxHashRebuilds = 8

// errNodeMerged reports a fused node that gorgonia merged into an existing
// node of another op (see above).
var errNodeMerged = errors.New("gorgonia merged a new node into another with the same 32-bit hash")

// ErrHashCollisions reports a graph that kept colliding after
// maxHashRebuilds rebuilds.
var ErrHashCollisions = errors.New("graph nodes keep colliding in gorgonia's 32-bit hash")

// hashCollision returns two distinct nodes of g with one Hashcode, or nils.
func hashCollision(g *gorgonia.ExprGraph) (a, b *gorgonia.Node) {
	nodes := g.AllNodes()
	seen := make(map[uint32]*gorgonia.Node, len(nodes))
	for _, n := range nodes {
		h := n.Hashcode()
		if m, ok := seen[h]; ok && m != n {
			return m, n
		}
		seen[h] = n
	}
	return nil, nil
}
