// Package samarkand implements the rules of samarkand (work in progress).
package samarkand
