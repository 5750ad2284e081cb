// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;
import {Handler} from "./Handler.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

contract ScratchDiagTest {
    uint256 constant SEED = 2;
    Handler h;
    function setUp() public { h = new Handler(); }
    function _c(bytes4 sel) internal view returns (string memory) { return string.concat(" ", Strings.toString(h.calls(sel))); }
    function _n(uint256 v) internal pure returns (string memory) { return string.concat(" ", Strings.toString(v)); }
    function test_walk() public {
        uint256 reverted;
        for (uint256 i; i < 100; ++i) {
            uint256 r = uint256(keccak256(abi.encode(i, "walk", SEED)));
            uint256 a = r % 24; if (a >= 20) a = 13; r = uint256(keccak256(abi.encode(r)));
            bytes memory data;
            if (a == 0) data = abi.encodeCall(h.deposit, (r, r >> 7));
            else if (a == 1) data = abi.encodeCall(h.withdraw, (r, r >> 7));
            else if (a == 2) data = abi.encodeCall(h.publish, (r, uint16(r >> 8), uint32(r >> 30), r & 1 == 0));
            else if (a == 3) data = abi.encodeCall(h.submit, (r, r >> 3, uint8(r >> 9), uint96(r >> 20), uint80(r >> 120), uint40(r >> 200), (r >> 250) & 1 == 0));
            else if (a == 4) data = abi.encodeCall(h.submitBatch, (r, r >> 5, uint8(r >> 100)));
            else if (a == 5) data = abi.encodeCall(h.cancel, (r));
            else if (a == 6) data = abi.encodeCall(h.claim, (r, r >> 9));
            else if (a == 7) data = abi.encodeCall(h.submitResult, (r, uint32(r >> 9)));
            else if (a == 8) data = abi.encodeCall(h.commit, (r, r >> 9, uint8(r >> 100)));
            else if (a == 9) data = abi.encodeCall(h.reveal, (r, r >> 9, uint32(r >> 100)));
            else if (a == 10) data = abi.encodeCall(h.reopenSlot, (r, r >> 9));
            else if (a == 11) data = abi.encodeCall(h.finalize, (r));
            else if (a == 12) data = abi.encodeCall(h.expire, (r));
            else if (a == 13) data = abi.encodeCall(h.advance, (r, r >> 9));
            else if (a == 14) data = abi.encodeCall(h.withdrawTreasury, ());
            else if (a == 15) data = abi.encodeCall(h.warp, (r));
            else if (a == 16) data = abi.encodeCall(h.stake, (r, r >> 9));
            else if (a == 17) data = abi.encodeCall(h.requestUnbond, (r, r >> 9));
            else if (a == 18) data = abi.encodeCall(h.withdrawUnbonded, (r));
            else data = abi.encodeCall(h.claimRewards, (r));
            (bool ok,) = address(h).call(data);
            if (!ok) reverted++;
        }
        string memory m = string.concat("reverted", _n(reverted), " tasks/final/paidReplicas/slashes/live", _n(h.ghostTasks()), _n(h.ghostFinalizedTasks()), _n(h.ghostPaidReplicas()), _n(h.ghostSlashes()), _n(h.liveTasks().length));
        m = string.concat(m, " | submit/batch/cancel/claim/submitResult", _c(h.submit.selector), _c(h.submitBatch.selector), _c(h.cancel.selector), _c(h.claim.selector), _c(h.submitResult.selector));
        m = string.concat(m, " | commit/reveal/finalize/expire/reopen/advance", _c(h.commit.selector), _c(h.reveal.selector), _c(h.finalize.selector), _c(h.expire.selector), _c(h.reopenSlot.selector), _c(h.advance.selector));
        m = string.concat(m, " | dep/wd/stake/unbond/wdUnb/claimR/treas/warp/pub", _c(h.deposit.selector), _c(h.withdraw.selector), _c(h.stake.selector), _c(h.requestUnbond.selector), _c(h.withdrawUnbonded.selector));
        m = string.concat(m, _c(h.claimRewards.selector), _c(h.withdrawTreasury.selector), _c(h.warp.selector), _c(h.publish.selector));
        m = string.concat(m, " | steps by status open/claimed/revealing, openNotClaimable", _c(bytes4(uint32(101))), _c(bytes4(uint32(102))), _c(bytes4(uint32(103))), _c(bytes4(uint32(200))));
        revert(m);
    }
}
