// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;
import {Handler} from "./Handler.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {Task} from "../../contracts/interfaces/ITaskMarket.sol";

contract ScratchDiag2Test {
    Handler h;
    function setUp() public { h = new Handler(); }
    function _n(uint256 v) internal pure returns (string memory) { return string.concat(" ", Strings.toString(v)); }
    function test_one() public {
        h.submit(0, 0, 1, 10e18, 0, 1 days, false);
        Task memory t = h.market().getTask(1);
        string memory m = string.concat("status", _n(uint8(t.status)));
        h.advance(0, 7);
        t = h.market().getTask(1);
        m = string.concat(m, " after", _n(uint8(t.status)), " paid", _n(h.ghostPaidReplicas()), " time", _n(h.currentTime()), " now", _n(block.timestamp));
        m = string.concat(m, " dueAt", _n(h.market().getSlots(1)[0].dueAt), " deadline", _n(t.deadline));
        revert(m);
    }
}
