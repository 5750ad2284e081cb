// The whole system around a new GridToken (its supply minted to the deployer), every contract owned by
// the deployer: test networks. Parameters: the `LocalGridforge` entry of ignition/parameters.json.
export { localGridforgeModule as default } from '@gridforge/contracts/ignition'
