// SPDX-License-Identifier: MIT
/*
 * dmlcl's GPU memory model: an Oclgrind plugin that records every global and local memory
 * access of a kernel launch with its work-item and reduces them as an NVIDIA GPU issues them
 * (docs/testing.md, "The GPU memory model"):
 *
 *   warp      32 consecutive work-items of a work-group, in linear local-id order
 *             (x fastest); the last warp of a group may be partial.
 *   request   one dynamic load or store instruction of a warp: the same instruction, reached
 *             through the same call sites, at the same occurrence count (its n-th execution)
 *             in each active lane.
 *   global    a request moves the distinct 32-byte sectors its lanes touch; it uses the
 *             distinct bytes they touch. Coalescing efficiency = bytes used / (sectors x 32).
 *   local     32 banks of 4-byte words; a request takes as many wavefronts as the most
 *             distinct words any bank holds (one word read by many lanes is a free
 *             broadcast); 8- and 16-byte accesses go by half and quarter warps (128 bytes a
 *             phase). Replays = wavefronts - phases.
 *   constant  loads through __constant pointers (arguments, program-scope constants) go to
 *             the constant cache, not DRAM: counted apart, with the distinct addresses a
 *             request serialises over.
 *   DRAM      the distinct sectors the launch loads and stores, as a perfect cache would see
 *             them, beside the sum over requests (no reuse at all); the unavoidable traffic is
 *             the distinct bytes loaded and stored.
 *   flight    a GPU issues a work-item's instructions in order and waits at the first one that
 *             uses a value a global load has not yet delivered (a store of it, arithmetic on it,
 *             a load whose address it makes): the loads issued since the last wait are one
 *             batch, in flight together. Per launch: the batches, their loads and bytes (bytes
 *             / batches: what an item has in flight when it waits, against the bytes per SM a
 *             GPU's latency needs: Little's law). Followed through the kernel's IR in the order
 *             the compiler left it: a phi or bitcast of a pending value is the value, anything
 *             else using it waits; a barrier and the item's end close its batch. Constant and
 *             local loads are not counted (a cache and the SM's own memory).
 *
 * Not modelled: caches beyond that (L1/L2 hits and capacity), timing, occupancy (how many
 * items an SM holds), the compiler's own reordering of independent loads, atomics,
 * async work-group copies (counted), private memory (registers or local memory spills).
 *
 * Output: one JSON object per launch, a line each, appended to the file named by
 * DMLCL_GPUMODEL_OUT (else a line on stderr). Loaded by Oclgrind through
 * OCLGRIND_PLUGINS=libdmlcl-gpumodel.so (scripts/gpumodel). Thread-safe: Oclgrind runs a
 * work-group on one worker thread from start to end, so each worker keeps its group's
 * accesses and merges its totals under a lock.
 */
#include <oclgrind/Context.h>
#include <oclgrind/Kernel.h>
#include <oclgrind/KernelInvocation.h>
#include <oclgrind/Memory.h>
#include <oclgrind/Plugin.h>
#include <oclgrind/Program.h>
#include <oclgrind/WorkGroup.h>
#include <oclgrind/WorkItem.h>

#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/DebugLoc.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instruction.h>
#include <llvm/IR/Instructions.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace
{

using oclgrind::Memory;
using oclgrind::WorkGroup;
using oclgrind::WorkItem;

constexpr unsigned warp_size = 32, sector_bytes = 32, banks = 32, bank_bytes = 4;

enum Kind { GLOBAL_LOAD, GLOBAL_STORE, LOCAL_LOAD, LOCAL_STORE, CONSTANT_LOAD, KINDS };
const char *const kind_names[KINDS] = {"global_load", "global_store", "local_load", "local_store",
                                       "constant_load"};

struct Access {
    uint32_t lane;
    size_t address; // Oclgrind's: buffer number in the high bits, offset in the low
    uint32_t size;
};

// A request's key within its warp: instruction, the call sites it was reached through (a
// function Oclgrind's -Oz build did not inline runs once per call site on a GPU too), its
// occurrence, kind.
struct RequestKey {
    const llvm::Instruction *inst;
    size_t sites;
    uint32_t occurrence;
    uint32_t kind;
    bool operator==(const RequestKey &o) const
    {
        return inst == o.inst && sites == o.sites && occurrence == o.occurrence && kind == o.kind;
    }
};
struct RequestKeyHash {
    size_t operator()(const RequestKey &k) const
    {
        return std::hash<const void *>()(k.inst) ^ k.sites * 0xBF58476D1CE4E5B9ull ^
               (size_t)k.occurrence * 0x9E3779B97F4A7C15ull ^ (size_t)k.kind << 61;
    }
};

// The call instructions on a work-item's stack, hashed (std::stack keeps them in its
// protected container).
template <class Stack> const typename Stack::container_type &stack_container(const Stack &s)
{
    struct Open : Stack {
        static const typename Stack::container_type &get(const Stack &t)
        {
            return t.*(&Open::c);
        }
    };
    return Open::get(s);
}

size_t call_sites(const WorkItem *item)
{
    size_t h = 0;
    for (const llvm::Instruction *call : stack_container(item->getCallStack()))
        h = (h ^ std::hash<const void *>()(call)) * 0x100000001B3ull;
    return h;
}

// Totals of one kind (global, constant: sectors, bytes; local: wavefronts, phases).
struct Totals {
    uint64_t requests = 0, lanes = 0, sectors = 0, bytes = 0, wavefronts = 0, phases = 0,
             distinct = 0;
    void add(const Totals &o)
    {
        requests += o.requests;
        lanes += o.lanes;
        sectors += o.sectors;
        bytes += o.bytes;
        wavefronts += o.wavefronts;
        phases += o.phases;
        distinct += o.distinct;
    }
};

// Bytes of one global buffer a launch loads or stores (one bit a byte).
struct Touched {
    std::vector<uint64_t> load, store;
};

// A work-item's global loads in flight: the values not yet used, since its last wait.
struct Flight {
    std::vector<const llvm::Value *> pending;
    uint64_t loads = 0, bytes = 0;
    const llvm::Instruction *loading = nullptr; // the instruction whose load the item just did
    uint64_t loading_bytes = 0;
};

// Batches closed: count, loads and bytes.
struct FlightTotals {
    uint64_t batches = 0, loads = 0, bytes = 0;
    void add(const FlightTotals &o)
    {
        batches += o.batches;
        loads += o.loads;
        bytes += o.bytes;
    }
};

struct Worker {
    const WorkGroup *group = nullptr;
    std::vector<Flight> flight; // per linear local id
    FlightTotals flights;
    size_t items = 0;
    std::vector<uint32_t> done; // finished work-items per warp
    // Occurrences so far of (instruction, call sites, linear local id, kind).
    std::unordered_map<RequestKey, uint32_t, RequestKeyHash> occurrences;
    // Pending requests per warp.
    std::vector<std::unordered_map<RequestKey, std::vector<Access>, RequestKeyHash>> pending;
    Totals totals[KINDS];
    std::unordered_map<const llvm::Instruction *, Totals> per_inst[KINDS];
    uint64_t request_sectors = 0, group_accesses = 0;
    // This group's global accesses, (address, size), marked in the launch's bitmaps at its end.
    std::vector<std::pair<size_t, size_t>> loaded, stored;
};

thread_local Worker worker;

size_t linear_id(const WorkItem *item, const oclgrind::Size3 &size)
{
    oclgrind::Size3 l = item->getLocalID();
    return l.x + size.x * (l.y + size.y * l.z);
}

class GpuModel : public oclgrind::Plugin
{
  public:
    explicit GpuModel(const oclgrind::Context *context) : oclgrind::Plugin(context)
    {
        const char *out = getenv("DMLCL_GPUMODEL_OUT");
        if (out && *out)
            path = out;
    }

    bool isThreadSafe() const override
    {
        return true;
    }

    void kernelBegin(const oclgrind::KernelInvocation *invocation) override
    {
        std::lock_guard<std::mutex> lock(mutex);
        kernel = invocation->getKernel();
        global_size = invocation->getGlobalSize();
        local_size = invocation->getLocalSize();
        for (auto &t : totals)
            t = Totals();
        for (auto &m : per_inst)
            m.clear();
        touched.clear();
        request_sectors = group_accesses = 0;
        flights = FlightTotals();
        constant_buffers.clear();
        find_constant_buffers();
    }

    void kernelEnd(const oclgrind::KernelInvocation *invocation) override
    {
        std::lock_guard<std::mutex> lock(mutex);
        write_record();
        kernel = nullptr;
    }

    void workGroupBegin(const WorkGroup *group) override
    {
        Worker &w = worker;
        w.group = group;
        oclgrind::Size3 s = group->getGroupSize();
        w.items = s.x * s.y * s.z;
        size_t warps = (w.items + warp_size - 1) / warp_size;
        w.done.assign(warps, 0);
        w.pending.assign(warps, {});
        w.occurrences.clear();
        w.flight.assign(w.items, Flight());
    }

    // The in-order issue of one work-item: an instruction using a pending load's value waits
    // for it (the batch closes); a phi or bitcast of one is that value under another name.
    void instructionExecuted(const WorkItem *item, const llvm::Instruction *inst,
                             const oclgrind::TypedValue &result) override
    {
        Worker &w = worker;
        if (!w.group)
            return;
        Flight &f = w.flight[linear_id(item, w.group->getGroupSize())];
        if (!f.pending.empty()) {
            bool uses = false;
            for (const llvm::Use &op : inst->operands())
                if (std::find(f.pending.begin(), f.pending.end(), op.get()) != f.pending.end()) {
                    uses = true;
                    break;
                }
            if (uses) {
                if (llvm::isa<llvm::PHINode>(inst) || llvm::isa<llvm::BitCastInst>(inst) ||
                    inst->getOpcode() == llvm::Instruction::Freeze)
                    f.pending.push_back(inst);
                else
                    land(w, f);
            }
        }
        if (f.loading == inst) {
            f.pending.push_back(inst);
            ++f.loads;
            f.bytes += f.loading_bytes;
            f.loading = nullptr;
            f.loading_bytes = 0;
        }
    }

    void workItemComplete(const WorkItem *item) override
    {
        Worker &w = worker;
        size_t warp = linear_id(item, w.group->getGroupSize()) / warp_size;
        size_t lanes = std::min<size_t>(warp_size, w.items - warp * warp_size);
        if (++w.done[warp] == lanes)
            reduce_warp(w, warp);
        land(w, w.flight[linear_id(item, w.group->getGroupSize())]);
    }

    // At a barrier every work-item has issued everything before it.
    void workGroupBarrier(const WorkGroup *group, uint32_t flags) override
    {
        Worker &w = worker;
        for (size_t warp = 0; warp < w.pending.size(); ++warp)
            reduce_warp(w, warp);
        for (Flight &f : w.flight)
            land(w, f);
    }

    void workGroupComplete(const WorkGroup *group) override
    {
        Worker &w = worker;
        for (size_t warp = 0; warp < w.pending.size(); ++warp)
            reduce_warp(w, warp);
        std::lock_guard<std::mutex> lock(mutex);
        for (int k = 0; k < KINDS; ++k) {
            totals[k].add(w.totals[k]);
            w.totals[k] = Totals();
            for (auto &e : w.per_inst[k])
                per_inst[k][e.first].add(e.second);
            w.per_inst[k].clear();
        }
        request_sectors += w.request_sectors;
        group_accesses += w.group_accesses;
        flights.add(w.flights);
        w.flights = FlightTotals();
        w.request_sectors = w.group_accesses = 0;
        mark(w.loaded, false);
        mark(w.stored, true);
        w.loaded.clear();
        w.stored.clear();
        w.group = nullptr;
    }

    void memoryLoad(const Memory *memory, const WorkItem *item, size_t address,
                    size_t size) override
    {
        unsigned space = memory->getAddressSpace();
        if (space == oclgrind::AddrSpaceLocal)
            record(item, LOCAL_LOAD, address, size);
        else if (space == oclgrind::AddrSpaceGlobal || space == oclgrind::AddrSpaceConstant)
            record(item, is_constant(memory, address) ? CONSTANT_LOAD : GLOBAL_LOAD, address, size);
    }

    void memoryStore(const Memory *memory, const WorkItem *item, size_t address, size_t size,
                     const uint8_t *data) override
    {
        unsigned space = memory->getAddressSpace();
        if (space == oclgrind::AddrSpaceLocal)
            record(item, LOCAL_STORE, address, size);
        else if (space == oclgrind::AddrSpaceGlobal)
            record(item, GLOBAL_STORE, address, size);
    }

    void memoryLoad(const Memory *memory, const WorkGroup *group, size_t address,
                    size_t size) override
    {
        ++worker.group_accesses;
    }

    void memoryStore(const Memory *memory, const WorkGroup *group, size_t address, size_t size,
                     const uint8_t *data) override
    {
        ++worker.group_accesses;
    }

  private:
    std::string path;
    std::mutex mutex;
    const oclgrind::Kernel *kernel = nullptr;
    oclgrind::Size3 global_size, local_size;
    Totals totals[KINDS];
    std::unordered_map<const llvm::Instruction *, Totals> per_inst[KINDS];
    std::map<size_t, Touched> touched; // by global buffer number
    std::unordered_set<size_t> constant_buffers;
    uint64_t request_sectors = 0, group_accesses = 0, launches = 0;
    FlightTotals flights;

    // The item waits: its batch, if any, is counted and closed.
    static void land(Worker &w, Flight &f)
    {
        if (f.loads) {
            w.flights.batches += 1;
            w.flights.loads += f.loads;
            w.flights.bytes += f.bytes;
        }
        f.pending.clear();
        f.loads = f.bytes = 0;
    }

    // The buffers behind __constant arguments and program-scope __constant variables.
    void find_constant_buffers()
    {
        const Memory *global = m_context->getGlobalMemory();
        const llvm::Function *f = kernel->getFunction();
        for (auto v = kernel->values_begin(); v != kernel->values_end(); ++v) {
            const llvm::Value *value = v->first;
            const llvm::Type *type = value->getType();
            if (!type->isPointerTy() || type->getPointerAddressSpace() != 2)
                continue;
            bool argument = false;
            for (const llvm::Argument &a : f->args())
                argument |= &a == value;
            if (!argument && !llvm::isa<llvm::GlobalVariable>(value))
                continue;
            if (v->second.size == sizeof(size_t) && v->second.data)
                constant_buffers.insert(global->extractBuffer(v->second.getPointer()));
        }
    }

    bool is_constant(const Memory *memory, size_t address) const
    {
        return constant_buffers.count(memory->extractBuffer(address)) != 0;
    }

    void record(const WorkItem *item, Kind kind, size_t address, size_t size)
    {
        Worker &w = worker;
        if (!w.group)
            return;
        oclgrind::Size3 gs = w.group->getGroupSize();
        size_t id = linear_id(item, gs);
        const llvm::Instruction *inst = item->getCurrentInstruction();
        size_t sites = call_sites(item);
        // The occurrence counter's key: the work-item's linear id in the place of the count.
        uint32_t n = w.occurrences[RequestKey{inst, sites, (uint32_t)id, (uint32_t)kind}]++;
        w.pending[id / warp_size][RequestKey{inst, sites, n, (uint32_t)kind}].push_back(
            Access{(uint32_t)(id % warp_size), address, (uint32_t)size});
        if (kind == GLOBAL_LOAD) {
            w.loaded.emplace_back(address, size);
            Flight &f = w.flight[id];
            if (f.loading != inst)
                f.loading_bytes = 0;
            f.loading = inst;
            f.loading_bytes += size;
        } else if (kind == GLOBAL_STORE)
            w.stored.emplace_back(address, size);
    }

    void reduce_warp(Worker &w, size_t warp)
    {
        for (auto &r : w.pending[warp]) {
            Totals t;
            t.requests = 1;
            t.lanes = r.second.size();
            uint32_t kind = r.first.kind;
            if (kind == LOCAL_LOAD || kind == LOCAL_STORE)
                bank_wavefronts(r.second, t);
            else
                sectors(r.second, t);
            if (kind == GLOBAL_LOAD || kind == GLOBAL_STORE)
                w.request_sectors += t.sectors;
            w.totals[kind].add(t);
            w.per_inst[kind][r.first.inst].add(t);
        }
        w.pending[warp].clear();
    }

    // Distinct sectors and bytes of a global request; distinct addresses (constant cache).
    static void sectors(const std::vector<Access> &lanes, Totals &t)
    {
        std::vector<size_t> bytes, addresses;
        for (const Access &a : lanes) {
            addresses.push_back(a.address);
            for (size_t b = 0; b < a.size; ++b)
                bytes.push_back(a.address + b);
        }
        std::sort(bytes.begin(), bytes.end());
        bytes.erase(std::unique(bytes.begin(), bytes.end()), bytes.end());
        std::sort(addresses.begin(), addresses.end());
        t.distinct = std::unique(addresses.begin(), addresses.end()) - addresses.begin();
        t.bytes = bytes.size();
        size_t last = SIZE_MAX;
        for (size_t b : bytes)
            if (b / sector_bytes != last) {
                last = b / sector_bytes;
                ++t.sectors;
            }
    }

    // Wavefronts of a local request: per phase (128 bytes of lanes), the most distinct words
    // in one bank.
    static void bank_wavefronts(std::vector<Access> &lanes, Totals &t)
    {
        std::sort(lanes.begin(), lanes.end(),
                  [](const Access &a, const Access &b) { return a.lane < b.lane; });
        uint32_t width = 0;
        for (const Access &a : lanes)
            width = std::max(width, a.size);
        uint32_t per_phase = std::max<uint32_t>(1, warp_size * bank_bytes / std::max(width, 4u));
        std::vector<size_t> words[banks];
        uint32_t phase = UINT32_MAX;
        auto close = [&]() {
            size_t most = 0;
            for (auto &b : words) {
                std::sort(b.begin(), b.end());
                most = std::max<size_t>(most, std::unique(b.begin(), b.end()) - b.begin());
                b.clear();
            }
            if (most) {
                t.wavefronts += most;
                ++t.phases;
            }
        };
        for (const Access &a : lanes) {
            if (a.lane / per_phase != phase) {
                close();
                phase = a.lane / per_phase;
            }
            for (size_t word = a.address / bank_bytes;
                 word <= (a.address + a.size - 1) / bank_bytes; ++word)
                words[word % banks].push_back(word);
        }
        close();
    }

    // Global bytes touched, into the launch's per-buffer bitmaps (under the lock).
    void mark(const std::vector<std::pair<size_t, size_t>> &list, bool store)
    {
        const Memory *global = m_context->getGlobalMemory();
        for (const auto &p : list) {
            size_t buffer = global->extractBuffer(p.first), at = global->extractOffset(p.first);
            Touched &t = touched[buffer];
            std::vector<uint64_t> &bits = store ? t.store : t.load;
            if (bits.empty()) {
                const Memory::Buffer *b = global->getBuffer(p.first);
                bits.assign(((b ? b->size : at + p.second) + 63) / 64 + 1, 0);
            }
            for (size_t i = at; i < at + p.second; ++i)
                if (i / 64 < bits.size())
                    bits[i / 64] |= 1ull << (i % 64);
        }
    }

    // Distinct bytes and 32-byte sectors of one bitmap.
    static void count(const std::vector<uint64_t> &bits, uint64_t &bytes, uint64_t &sectors)
    {
        for (uint64_t word : bits) {
            bytes += __builtin_popcountll(word);
            for (int s = 0; s < 2; ++s)
                sectors += (word >> (32 * s) & 0xFFFFFFFFull) != 0;
        }
    }

    static std::string json_string(const std::string &s)
    {
        std::string out = "\"";
        for (char c : s) {
            if (c == '"' || c == '\\')
                out += '\\', out += c;
            else if ((unsigned char)c < 0x20)
                out += ' ';
            else
                out += c;
        }
        return out + "\"";
    }

    // The instruction's source line (kernels built with -g) or its IR.
    std::string where(const llvm::Instruction *inst) const
    {
        std::ostringstream s;
        const llvm::DebugLoc &loc = inst->getDebugLoc();
        if (loc && kernel) {
            unsigned line = loc.getLine();
            const char *text = kernel->getProgram()->getSourceLine(line);
            s << "line " << line << ": ";
            if (text) {
                std::string t(text);
                t.erase(0, t.find_first_not_of(" \t"));
                s << t.substr(0, 160);
            }
            return s.str();
        }
        oclgrind::dumpInstruction(s, inst);
        std::string t = s.str();
        t.erase(0, t.find_first_not_of(" \t"));
        return t.substr(0, 160);
    }

    static void put_totals(std::ostringstream &o, const Totals &t)
    {
        o << "{\"requests\":" << t.requests << ",\"lanes\":" << t.lanes
          << ",\"sectors\":" << t.sectors << ",\"bytes\":" << t.bytes
          << ",\"wavefronts\":" << t.wavefronts << ",\"phases\":" << t.phases
          << ",\"distinct\":" << t.distinct << "}";
    }

    // The source lines (or instructions) that waste the most: sectors beyond their bytes'
    // share, replays, serialised constant reads. An unrolled loop's copies of one access share
    // their line and are counted together.
    void put_worst(std::ostringstream &o) const
    {
        std::map<std::pair<int, std::string>, Totals> lines;
        for (int k = 0; k < KINDS; ++k)
            for (const auto &e : per_inst[k])
                lines[std::make_pair(k, where(e.first))].add(e.second);
        struct Row {
            uint64_t waste;
            int kind;
            const std::string *where;
            const Totals *t;
        };
        std::vector<Row> rows;
        for (const auto &e : lines) {
            const Totals &t = e.second;
            int k = e.first.first;
            uint64_t waste = k == LOCAL_LOAD || k == LOCAL_STORE
                                 ? (t.wavefronts - t.phases) * warp_size * bank_bytes
                             : k == CONSTANT_LOAD ? (t.distinct - t.requests) * bank_bytes
                                                  : t.sectors * sector_bytes - t.bytes;
            if (waste)
                rows.push_back(Row{waste, k, &e.first.second, &t});
        }
        std::sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
            return a.waste != b.waste ? a.waste > b.waste : a.kind < b.kind;
        });
        o << "[";
        for (size_t i = 0; i < rows.size() && i < 6; ++i) {
            o << (i ? "," : "") << "{\"kind\":\"" << kind_names[rows[i].kind] << "\",\"totals\":";
            put_totals(o, *rows[i].t);
            o << ",\"where\":" << json_string(*rows[i].where) << "}";
        }
        o << "]";
    }

    void write_record()
    {
        uint64_t load_bytes = 0, load_sectors = 0, store_bytes = 0, store_sectors = 0;
        for (const auto &e : touched) {
            count(e.second.load, load_bytes, load_sectors);
            count(e.second.store, store_bytes, store_sectors);
        }
        std::ostringstream o;
        o << "{\"launch\":" << launches++ << ",\"kernel\":" << json_string(kernel->getName())
          << ",\"options\":" << json_string(kernel->getProgram()->getBuildOptions())
          << ",\"global\":[" << global_size.x << "," << global_size.y << "," << global_size.z
          << "],\"local\":[" << local_size.x << "," << local_size.y << "," << local_size.z << "]";
        for (int k = 0; k < KINDS; ++k) {
            o << ",\"" << kind_names[k] << "\":";
            put_totals(o, totals[k]);
        }
        o << ",\"dram\":{\"load_sectors\":" << load_sectors
          << ",\"store_sectors\":" << store_sectors << ",\"load_bytes\":" << load_bytes
          << ",\"store_bytes\":" << store_bytes << ",\"request_sectors\":" << request_sectors
          << "},\"group_accesses\":" << group_accesses
          << ",\"flight\":{\"batches\":" << flights.batches << ",\"loads\":" << flights.loads
          << ",\"bytes\":" << flights.bytes << "},\"worst\":";
        put_worst(o);
        o << "}\n";
        std::string line = o.str();
        FILE *f = path.empty() ? stderr : fopen(path.c_str(), "a");
        if (!f) {
            fprintf(stderr, "dmlcl-gpumodel: cannot append to %s\n", path.c_str());
            return;
        }
        fputs(line.c_str(), f);
        if (f != stderr)
            fclose(f);
    }
};

GpuModel *plugin;

} // namespace

extern "C" {
void initializePlugins(oclgrind::Context *context)
{
    plugin = new GpuModel(context);
    context->registerPlugin(plugin);
}

void releasePlugins(oclgrind::Context *context)
{
    context->unregisterPlugin(plugin);
    delete plugin;
    plugin = nullptr;
}
}
