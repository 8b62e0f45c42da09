// Package models is the core of attend: model files, and (to come) the
// layers and training machinery the model packages build on.
package models
