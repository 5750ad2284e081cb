// The system around an existing ERC-20 (`asset`), owned by an OpenZeppelin TimelockController: real
// networks. Parameters: the `Gridforge` entry of a parameters file (ignition/parameters.governed.json).
export { gridforgeModule as default } from '@gridforge/contracts/ignition'
