import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'

// Vitest's jsdom environment replaces the global `Uint8Array` and `ArrayBuffer` with those of jsdom's
// own realm, while `TextEncoder`, `Buffer` and Node's crypto still make Node's: bytes encoded by the SDK
// (receipts put in a content store) then fail its `instanceof Uint8Array` checks. A browser has one
// realm; give the tests one too, Node's (as Vitest's node environment does).
globalThis.Uint8Array = Object.getPrototypeOf(Buffer.prototype).constructor
globalThis.ArrayBuffer = Buffer.alloc(1).buffer.constructor as ArrayBufferConstructor

// Vitest runs without globals, so Testing Library cannot register its own clean-up: unmount every
// rendered hook after each test (which also stops its watches).
afterEach(() => cleanup())

// Chain round trips (transactions, log polls) take longer than Testing Library's default second.
configure({ asyncUtilTimeout: 20_000 })
