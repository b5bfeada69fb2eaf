// Package proccpu measures the CPU time of a process and of the processes below it, the
// clock of fuzz's time check: unlike the wall clock, it does not grow while other processes
// hold the cores. It has no dependency outside the standard library, so that package fuzz,
// which other modules import, stays light.
package proccpu
