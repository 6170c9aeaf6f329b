// Every word and number the page shows, in English and 简体中文. Strings sit in pairs so a missing
// translation is visible at a glance; numbers go through Intl with the page's locale.
import { load, save } from './storage.js';

const STRINGS = {
  title: ['gpusizer: GPU memory and cloud cost for LLMs', 'gpusizer：大模型显存与云端成本计算器'],
  tagline: ['GPU memory and cloud cost for large language models', '大模型显存与云端成本计算器'],
  actions: ['Share and export', '分享与导出'],
  otherLang: ['中文', 'English'],
  langLabel: ['切换到中文', 'Switch to English'],
  loading: ['Loading the calculator…', '正在加载计算器…'],
  loadFailed: ['The calculator could not start: {msg}', '计算器无法启动：{msg}'],
  share: ['Copy link', '复制链接'],
  linkCopied: ['Link copied', '链接已复制'],
  embed: ['Embed', '嵌入'],
  exportJson: ['Export JSON', '导出 JSON'],
  print: ['Print', '打印'],
  copy: ['Copy', '复制'],
  copied: ['Copied', '已复制'],
  close: ['Close', '关闭'],
  dismiss: ['Dismiss', '关闭提示'],

  'sec.model': ['Model', '模型'],
  'mode.preset': ['Preset', '预设'],
  'mode.config': ['config.json', 'config.json'],
  'mode.params': ['Parameters', '参数量'],
  'f.model': ['Model preset', '预设模型'],
  'h.model': ['Type to search by name or size', '输入名称或规模即可搜索'],
  'f.hf_config': ['Hugging Face config.json', 'Hugging Face config.json'],
  'h.hf_config': ['Paste it, drop the file here, or choose it', '粘贴内容、拖入文件或选择文件'],
  chooseFile: ['Choose file…', '选择文件…'],
  'f.params': ['Parameters (billions)', '参数量（十亿，B）'],
  'h.params': ['The architecture is then guessed: prefer a preset or config.json',
    '此时模型结构为推算值：优先使用预设或 config.json'],
  modelFacts: ['{params} parameters · {layers} layers · {heads} heads ({kv} KV) · {kvtok} KV cache per token (bf16)',
    '{params} 参数 · {layers} 层 · {heads} 个注意力头（KV {kv} 个）· 每 token KV 缓存 {kvtok}（bf16）'],
  configJson: ['not valid JSON: {msg}', '不是合法的 JSON：{msg}'],

  'sec.workload': ['Workload', '负载'],
  'task.inference': ['Serving', '推理部署'],
  'task.full': ['Full fine-tune', '全参微调'],
  'task.lora': ['LoRA', 'LoRA'],
  'task.qlora': ['QLoRA', 'QLoRA'],
  'task.pretrain': ['Pre-training', '预训练'],
  'group.training': ['Training', '训练'],
  'group.hardware': ['Hardware', '硬件'],
  'group.advanced': ['Advanced options', '高级选项'],

  'f.weights': ['Weight precision', '权重精度'],
  'f.kv_cache': ['KV cache precision', 'KV 缓存精度'],
  'f.engine': ['Engine', '框架'],
  'f.seq_len.inference': ['Context per sequence (tokens)', '每条序列上下文（token）'],
  'f.seq_len': ['Sequence length (tokens)', '序列长度（token）'],
  'f.batch.inference': ['Concurrent sequences', '并发序列数'],
  'f.batch': ['Micro-batch per GPU', '每卡微批大小'],
  'f.output_tokens': ['Output tokens per sequence', '每条序列输出 token 数'],
  'f.gpu': ['GPU', 'GPU 型号'],
  'f.gpus': ['GPUs in total', 'GPU 总数'],
  'f.tp': ['Tensor parallel (TP)', '张量并行（TP）'],
  'f.pp': ['Pipeline parallel (PP)', '流水线并行（PP）'],
  'f.training.optimizer': ['Optimizer', '优化器'],
  'f.training.grad_checkpointing': ['Activation checkpointing', '激活重计算'],
  'f.training.zero': ['ZeRO stage', 'ZeRO 阶段'],
  'f.training.lora_rank': ['LoRA rank', 'LoRA 秩'],
  'f.training.lora_targets': ['LoRA targets', 'LoRA 目标模块'],
  'f.training.tokens': ['Training tokens (dataset × epochs)', '训练 token 总量（数据 × 轮数）'],
  'f.flash_attention': ['FlashAttention', 'FlashAttention'],
  'f.training.master_weights': ['FP32 master weights', 'FP32 主权重'],
  'f.training.offload_optimizer': ['Offload optimizer states to CPU', '优化器状态卸载到 CPU'],
  'f.training.offload_params': ['Offload parameters to CPU', '参数卸载到 CPU'],
  'f.training.grad_accum': ['Gradient accumulation steps', '梯度累积步数'],
  'f.efficiency.mfu': ['MFU override (%)', 'MFU 覆盖值（%）'],
  'f.efficiency.bandwidth': ['Memory bandwidth efficiency override (%)', '显存带宽利用率覆盖值（%）'],
  'f.headroom': ['Memory kept free by the planner (%)', '规划时预留显存（%）'],
  'f.pricing.currency': ['Currency', '币种'],
  'f.pricing.cny_per_usd': ['CNY per USD', '美元兑人民币汇率'],
  'f.filters.providers': ['Providers', '云厂商'],
  'f.filters.gpus': ['GPU types', 'GPU 型号'],
  'f.filters.max_gpus': ['At most GPUs', '最多 GPU 数'],
  'f.load.requests_per_s': ['Load, requests/s', '负载：每秒请求数'],
  'f.load.ttft_s': ['Target time to first token, s', '首 token 时延目标（秒）'],
  'f.load.tpot_s': ['Target time per output token, s', '每输出 token 时延目标（秒）'],
  byDefault: ['default', '默认'],
  'ph.output_tokens': ['half the context', '上下文的一半'],
  all: ['all', '全部'],
  none: ['none', '无'],
  'opt.none': ['None', '不重计算'],
  'opt.selective': ['Selective', '选择性'],
  'opt.full': ['Full', '完整'],
  'opt.all-linear': ['All linear layers', '全部线性层'],
  'opt.attention': ['Attention projections', '注意力投影层'],
  'opt.qv': ['q and v', 'q 与 v'],
  'opt.0': ['0 (off)', '0（关闭）'],
  'opt.adamw-8bit': ['AdamW 8-bit', 'AdamW 8-bit'],
  'opt.paged-adamw-8bit': ['Paged AdamW 8-bit', 'Paged AdamW 8-bit'],
  'opt.sgd': ['SGD with momentum', 'SGD（带动量）'],
  'opt.adamw': ['AdamW', 'AdamW'],
  'opt.adafactor': ['Adafactor', 'Adafactor'],

  'sec.memory': ['Memory per GPU', '每卡显存'],
  shape: ['{batch} × {seq} tokens', '{batch} × {seq} token'],
  fits: ['Fits on {gpu}: {need} of {cap} usable', '{gpu} 放得下：需要 {need}，可用 {cap}'],
  noFit: ['Does not fit on {gpu}: needs {need}, {cap} usable', '{gpu} 放不下：需要 {need}，仅 {cap} 可用'],
  noGpu: ['Choose a GPU to check the fit', '选择 GPU 型号以检查是否放得下'],
  'c.weights': ['Weights', '权重'],
  'c.gradients': ['Gradients', '梯度'],
  'c.optimizer': ['Optimizer states', '优化器状态'],
  'c.activations': ['Activations', '激活值'],
  'c.kv_cache': ['KV cache', 'KV 缓存'],
  'c.runtime': ['Runtime (CUDA context, workspaces)', '运行时（CUDA 上下文、工作区）'],
  total: ['Total', '合计'],
  capacity: ['{gpu}: {cap}', '{gpu}：{cap}'],
  params: ['Parameters', '参数量'],
  activeParams: ['Active per token', '每 token 激活参数'],
  trainableParams: ['Trainable', '可训练参数'],
  kvPerToken: ['KV cache per token', '每 token KV 缓存'],
  hostRam: ['Host RAM', '主机内存'],
  'sec.speed': ['Speed and time', '速度与时间'],
  prefill: ['Prefill', '预填充'],
  decode: ['Decode', '解码'],
  train: ['Training', '训练'],
  generation: ['Output, end to end', '端到端输出'],
  ttft: ['Time to first token', '首 token 延迟'],
  mbu: ['Assumed bandwidth efficiency', '假设的显存带宽利用率'],
  mfu: ['Assumed MFU', '假设的 MFU'],
  maxBatch: ['Largest batch that fits', '可放下的最大批量'],
  maxSeq: ['Longest sequence that fits', '可放下的最长序列'],
  tokens: ['{n} tokens', '{n} token'],
  wallHours: ['Wall-clock time', '耗时'],
  gpuHours: ['GPU-hours', 'GPU 时'],
  noSpeedNoFit: ['No speed or time: this layout does not fit the card, so it would not run. See what it takes below.',
    '不显示速度与时长：该配置在此卡上放不下，无法运行。请看下方“能放下的最少 GPU”。'],
  noSpeed: ['Speed and time appear here once the core estimates them for this workload.',
    '核心支持该负载的速度估算后，速度与时间会显示在这里。'],
  'sec.warnings': ['Warnings', '提示'],
  'sec.fits': ['Fit on every GPU type', '各型号 GPU 能否放下'],
  'col.gpu': ['GPU', 'GPU'],
  'col.capacity': ['Usable', '可用'],
  'col.need': ['Needed', '需要'],
  'col.free': ['Free', '剩余'],
  'col.fits': ['Fits', '放得下'],
  yes: ['yes', '是'],
  no: ['no', '否'],
  useGpu: ['Use {gpu}', '使用 {gpu}'],
  inputError: ['{field}: {msg}', '{field}：{msg}'],

  'sec.ranking': ['Cost ranking', '成本排名'],
  'sec.table': ['Lookup table: model size × workload', '速查表：模型规模 × 负载'],
  'sec.launch': ['Launch commands', '启动命令'],
  launchOn: ['For {instance}: {n} × {gpu}, TP {tp} · PP {pp} · DP {dp} · ZeRO {zero}, {dtype}. Pick another plan in the ranking.',
    '适用于 {instance}：{n} × {gpu}，TP {tp} · PP {pp} · DP {dp} · ZeRO {zero}，{dtype}。可在成本排名中选择其他方案。'],
  launchFor: ['For {n} × {gpu}, TP {tp} · PP {pp} · DP {dp} · ZeRO {zero}, {dtype}. Pick a plan in the ranking to get its commands.',
    '适用于 {n} × {gpu}，TP {tp} · PP {pp} · DP {dp} · ZeRO {zero}，{dtype}。在成本排名中选择方案即可生成对应命令。'],
  checked: ['flags checked against {v}', '参数已对照 {v} 核对'],
  unavailable: ['Not available in this build yet ({msg}).', '当前版本尚不可用（{msg}）。'],
  exportCsv: ['Export CSV', '导出 CSV'],
  plans: ['{n} plans, cheapest first', '{n} 个方案，按成本从低到高'],
  noPlans: ['No plan fits with these filters.', '在当前筛选条件下没有可行方案。'],
  sortBy: ['Sort by {col}', '按{col}排序'],
  pickPlan: ['{name}: show its launch commands', '{name}：查看启动命令'],
  nodes: ['{n} nodes', '{n} 台'],
  showAll: ['Show all {n} plans', '显示全部 {n} 个方案'],
  showFirst: ['Show the first {n}', '只显示前 {n} 个'],
  'p.provider': ['Provider', '云厂商'],
  'p.instance': ['Instance', '实例'],
  'p.region': ['Region', '地域'],
  'p.gpus': ['GPUs', 'GPU'],
  'p.parallel': ['TP · PP · ZeRO', 'TP · PP · ZeRO'],
  'p.per_gpu_bytes': ['Per GPU', '每卡显存'],
  'p.price_per_hour': ['Price / h', '每小时价格'],
  'p.decode': ['Decode, tokens', '解码 token'],
  'p.train': ['Training, tokens', '训练 token'],
  'p.hours': ['Hours', '时长'],
  'p.cost': ['Cost', '成本'],
  'p.cost_per_million_tokens': ['Per 1M tokens', '每百万 token'],
  tableHint: ['Select a cell to load its scenario.', '点击单元格即可载入该场景。'],
  noneFits: ['none fits', '放不下'],
  cellError: ['not computed ({msg})', '无法计算（{msg}）'],
  'wl.serve-bf16': ['', '推理，BF16（vLLM）'],
  'wl.serve-int4': ['', '推理，INT4 AWQ（vLLM）'],
  'wl.lora-bf16': ['', 'LoRA，BF16 底座'],
  'wl.qlora-nf4': ['', 'QLoRA，NF4 底座'],
  'wl.full-zero3': ['', '全参微调，AdamW 混合精度，ZeRO-3'],
  'tbl.col.full-zero3': ['', '全参微调，纯 BF16 AdamW，ZeRO-3'],
  'tbl.applyContext': ['Apply my scenario’s context (sequence length, training tokens) to every column',
    '将我的场景上下文（序列长度、训练 token 数）应用到每一列'],
  'tbl.settingsHint': ['Each column is a complete workload; edit its settings here. Prices, currency, provider and GPU filters and headroom follow your settings above.',
    '每一列都是一个完整的负载，可在此修改其设置。价格、币种、云厂商与 GPU 筛选以及显存余量沿用上方的设置。'],
  'tbl.chosenBy': ['chosen by {m}', '按{m}选择'],
  'tbl.m.cost_per_million_tokens': ['cost per 1M output tokens', '每百万输出 token 成本'],
  'tbl.m.price_per_hour': ['price per hour', '每小时价格'],
  'tbl.m.job_cost': ['cost of the job', '整个任务成本'],
  'tbl.perHour': ['{v} / h', '{v} / 小时'],
  'tbl.perMillion': ['{v} / 1M output tokens', '{v} / 百万输出 token'],
  'tbl.job': ['job {v}', '任务 {v}'],
  'tbl.perGpu': ['{v} per GPU', '每卡 {v}'],
  'tbl.none': ['none', '无'],
  'tbl.auto': ['auto (planner)', '自动（由规划器选择）'],
  'tbl.resetColumn': ['Reset column', '恢复本列'],
  'tbl.resetAll': ['Reset the table settings', '恢复速查表设置'],
  'tbl.noteWeights': ['weights {fmt}: {p}e9 × {b} B = {w} GB', '权重 {fmt}：{p}e9 × {b} B = {w} GB'],
  'tbl.noteKv': ['; KV cache {kv} GB ({tok} MB per token)', '；KV 缓存 {kv} GB（每 token {tok} MB）'],
  'tbl.notePlan': ['; this plan: {n} × {per} GB = {all} GB', '；本方案：{n} × {per} GB = {all} GB'],
  'tbl.flagWeights': ['{src}: {rule} = {v} GB, less than the weights ({w} GB)', '{src}：{rule} = {v} GB，小于权重本身（{w} GB）'],
  'tbl.flagShort': ['{src}: {rule} = {v} GB, {pct} % short', '{src}：{rule} = {v} GB，少估 {pct}%'],
  'sec.prices': ['Prices: {n} instances, {edited} edited, {custom} of your own', '价格：{n} 个实例，已修改 {edited} 个，自定义 {custom} 个'],
  pricesHint: ['Prices are per instance-hour in the listed currency. Your edits stay in this browser and are used by the ranking.',
    '价格为每实例每小时，币种见列表。修改只保存在本浏览器中，并用于成本排名。'],
  filterPrices: ['Filter instances', '筛选实例'],
  'p.price': ['Price / h', '每小时价格'],
  'p.date': ['Price date', '价格日期'],
  'p.source': ['Source', '来源'],
  reset: ['Reset', '恢复'],
  resetPrice: ['Reset the price of {name}', '恢复 {name} 的价格'],
  priceOf: ['Price per hour of {name} in {cur}', '{name} 每小时价格（{cur}）'],
  exportPrices: ['Export prices', '导出价格'],
  importPrices: ['Import prices', '导入价格'],
  importFailed: ['Could not import prices: {msg}', '无法导入价格：{msg}'],
  importShape: ['expected {"schema": 1, "overrides": {…}, "custom_instances": […]}',
    '应为 {"schema": 1, "overrides": {…}, "custom_instances": […]}'],
  imported: ['Imported {p} prices and {c} instances', '已导入 {p} 个价格和 {c} 个实例'],
  importSkipped: ['; not imported (no such instance type): {list}', '；未导入（无此实例类型）：{list}'],
  notAppliedCount: [', {n} not applied', '，{n} 项未生效'],
  notAppliedHint: ['Some saved entries were not applied; they are kept here and in the export until you discard them.',
    '部分已保存的条目未生效；它们会保留在这里和导出文件中，直到你删除。'],
  notApplied: ['not applied: {why}', '未生效：{why}'],
  discard: ['Discard', '丢弃'],
  unreadable: ['saved data that could not be read was kept as {key} in this browser\u2019s storage', '无法读取的已保存数据已另存为本浏览器存储中的 {key}'],
  customTitle: ['Your own instances', '自定义实例'],
  customHint: ['Ranked with the catalog’s, marked “custom”. With a provider filter, tick “Your own instances” to keep them.',
    '与目录中的实例一起排名，标为“自定义”。按云厂商筛选时，勾选“自定义实例”即可保留。'],
  customTag: ['custom', '自定义'],
  priceUndated: ['price undated', '价格无日期'],
  'hub.notPreset': ['“{id}” is not a preset: fetch its config.json from', '“{id}” 不是预设模型：可从以下地址获取其 config.json'],
  'hub.offline': ['“{id}” is not a preset, and this offline file cannot fetch: download its config.json from one of these addresses and paste it under “config.json”.',
    '“{id}” 不是预设模型，离线文件无法联网获取：请从以下地址之一下载 config.json，再粘贴到“config.json”中。'],
  'hub.fetch': ['Fetch from {source}', '从 {source} 获取'],
  'hub.fetching': ['Fetching {url}…', '正在获取 {url}…'],
  'hub.fetched': ['Loaded config.json from {url}', '已从 {url} 载入 config.json'],
  'hub.failed': ['Could not fetch {url} ({msg}): download it and paste it under “config.json”.', '无法获取 {url}（{msg}）：请下载后粘贴到“config.json”中。'],
  'p.perInstance': ['GPUs per instance', '每实例 GPU 数'],
  'p.load': ['At the load, per 1M tokens', '按该负载，每百万 token'],
  'p.links': ['Links', '互联'],
  replicas: ['{n} replicas × {b} concurrent', '{n} 个副本 × 每副本并发 {b}'],
  'link.none': ['one GPU', '单卡'],
  'link.tcp': ['TCP', 'TCP'],
  'sec.takes': ['What it takes', '所需配置'],
  'col.takes': ['Fewest GPUs that fit', '能放下的最少 GPU'],
  takesGpus: ['{n} GPUs', '{n} 张卡'],
  takesGpu: ['1 GPU', '1 张卡'],
  takesNone: ['none within the search', '搜索范围内放不下'],
  remediesTitle: ['What would make it fit on {gpu}:', '在 {gpu} 上放得下的办法：'],
  remedyFits: ['fits', '放得下'],
  remedyStill: ['still too large', '仍放不下'],
  'r.grad_checkpointing': ['full gradient checkpointing', '开启完整梯度检查点'],
  'r.batch_1': ['batch 1', '批量改为 1'],
  'r.lora': ['LoRA instead of full fine-tuning', '改用 LoRA 微调'],
  'r.qlora': ['QLoRA (4-bit NF4 base)', '改用 QLoRA（4 比特 NF4 底座）'],
  'r.adamw_8bit': ['8-bit AdamW', '8 比特 AdamW'],
  'r.zero3_offload': ['ZeRO-3 with CPU offload of optimizer and parameters', 'ZeRO-3 并将优化器与参数卸载到 CPU'],
  'r.kv_fp8': ['fp8 KV cache', 'fp8 KV 缓存'],
  'r.awq_int4': ['AWQ int4 weights', 'AWQ int4 权重'],
  'w.context_beyond_model': ['', '上下文长度 {0} 超过模型支持的 {1} 个位置（max_position_embeddings）：质量下降，推理框架会拒绝，除非用 RoPE 缩放扩展'],
  'w.batch_beyond_engine': ['', '推理框架默认同时最多运行 {0} 个序列（max_num_seqs / 最大批量）：请显式调大，否则会排队'],
  'w.engine_no_tp': ['', '该框架不支持张量并行：tp {0} 无法用它启动'],
  'w.engine_no_pp': ['', '该框架不支持流水线并行：pp {0} 无法用它启动'],
  'w.no_rdma': ['', '该方案跨 {0} 台实例，走 TCP（{1} Gbit/s，无 RDMA）：集合通信会比 InfiniBand/RoCE/EFA 慢数倍'],
  'w.slow_network': ['', '跨实例训练而实例间网络仅 {1} Gbit/s：低于多机 ZeRO 所需的 100 Gbit/s'],
  'w.price_stale': ['', '该价格已超过一年：请核实或自行覆盖'],
  'w.latency_target_unmet': ['', '即使每副本只跑一个序列也达不到时延目标'],
  addCustom: ['Add instance', '添加实例'],
  addFailed: ['Could not add the instance: {msg}', '无法添加实例：{msg}'],
  delete: ['Delete', '删除'],
  deleteCustom: ['Delete {name}', '删除 {name}'],
  notKept: ['This browser does not keep settings for this page: your prices last until it is closed.',
    '此浏览器无法为本页面保存设置：修改的价格在关闭页面后失效。'],

  hashProblem: ['The link could not be read ({key}: {reason}); the defaults are shown instead.',
    '无法解析链接（{key}：{reason}），已改为显示默认设置。'],
  'why.unknown': ['unknown key', '未知参数'],
  'why.number': ['expected a number', '应为数字'],
  'why.whole': ['expected a whole number', '应为整数'],
  'why.bool': ['expected true or false', '应为 true 或 false'],
  'why.json': ['not valid JSON', '不是合法的 JSON'],
  'why.task': ['unknown workload', '未知负载类型'],

  'sec.assumptions': ['Assumptions and sources', '假设与来源'],
  'a.peak': ['Memory is the predicted peak on the busiest GPU, everything included; the parts add up to it.',
    '显存为负载最重的 GPU 上的预测峰值，包含全部开销；各部分之和即为总数。'],
  'a.usable': ['Usable memory is what CUDA can allocate, less than the label: an “80 GB” card has 79.25 GiB.',
    '可用显存为 CUDA 实际可分配的容量，小于标称值：标称 “80 GB” 的卡为 79.25 GiB。'],
  'a.runtime': ['Runtime holds what torch.cuda.max_memory_allocated does not see: CUDA context, library workspaces, allocator fragmentation.',
    '运行时包括 torch.cuda.max_memory_allocated 统计不到的部分：CUDA 上下文、库工作区和分配器碎片。'],
  'a.units': ['GiB = 2³⁰ bytes. Speeds are aggregates over the whole deployment.', 'GiB = 2³⁰ 字节。速度为整个部署的总和。'],
  'a.model': ['Model: {name}, architecture of {repo} (its config.json).', '模型：{name}，结构取自 {repo}（其 config.json）。'],
  'a.modelOwn': ['Model: {name}, from the given input.', '模型：{name}，来自你提供的输入。'],
  'a.gpu': ['GPU: {name}, {bw} memory bandwidth (sources: {src}).', 'GPU：{name}，显存带宽 {bw}（来源：{src}）。'],
  footer: ['Runs entirely in your browser; nothing is uploaded. {models} models, {gpus} GPU types, {instances} cloud instances.',
    '完全在浏览器中运行，不上传任何数据。内含 {models} 个模型、{gpus} 款 GPU、{instances} 个云实例。'],

  embedTitle: ['Embed this calculator', '嵌入此计算器'],
  embedHint: ['Paste this into your page: the frame shows the current scenario and sets its own height.',
    '将以下代码粘贴到网页中：框架会显示当前场景，并自动调整高度。'],
  embedOffline: ['Put the dist/ folder on a web server to embed it; this address is a file on your disk.',
    '请把 dist/ 目录部署到网站上再嵌入；当前地址是本地文件。'],
  openFull: ['Open in gpusizer', '在 gpusizer 中打开'],
  embedFits: ['Fits on {n} of {of} GPU types; the smallest: {smallest}.', '{of} 款 GPU 中有 {n} 款放得下；显存最小的是 {smallest}。'],
  skip: ['Skip to results', '跳到结果'],

  // Warnings by the core's code (see warning() below); English is the core's own text.
  'w.bf16_unsupported': ['', '{gpu} 不支持原生 bf16：请改用 fp16（框架会回退到 fp16，或以较慢的方式模拟 bf16）'],
  'w.format_unsupported': ['', '推理框架无法在 {gpu} 上运行该权重格式（AWQ 需要计算能力 7.5 及以上，fp8 权重需要 8.0 及以上）：请换用 GPTQ/bf16，或选择更新的 GPU'],
  'w.fp8_unsupported': ['', '{gpu} 没有 FP8 张量核心（Ada、Hopper 及之后的架构才有）：fp8 只能以仅权重反量化方式运行，或无法运行'],
  'w.params_only_model': ['', '模型结构仅由参数量推算；请选择预设或提供 config.json，以精确计算 KV 缓存和激活值'],
  'w.zero_with_pipeline': ['', 'DeepSpeed 不支持流水线并行与 ZeRO-2/3 同时使用；pp > 1 时请用 ZeRO-1'],
  'w.megatron_zero': ['', 'Megatron-LM 只切分优化器状态（分布式优化器）：按 ZeRO-1 计算'],
  'w.zero_without_dp': ['', 'ZeRO 在数据并行进程间切分；只有一个进程（gpus / (tp × pp) = 1）时不节省显存'],
  'w.paged_optimizer_spill': ['', '分页优化器状态与其余部分一起放不下，会换页到主机内存（训练步变慢）'],
  'w.launch_fp16': ['', '{gpu} 不支持 bf16：命令改用 float16（推理 --dtype float16；训练用 fp16 混合精度和动态损失缩放，可能在 bf16 不会溢出时溢出）'],
  'w.launch_does_not_fit': ['', '估算每卡需要 {0} GiB，超过 {gpu} 的 {1} GiB：按这些命令运行会显存不足'],
  'w.launch_sglang_memory': ['', '--mem-fraction-static {0} 留下的显存少于估算的激活值和运行时缓冲区：请调低 --max-running-requests 或 --context-length'],
  'w.launch_fraction_capped': ['', '估算需要每张卡 {0} 以上的显存：显存占比上限为 {1}，KV 缓存可能装不下 batch × seq_len 个 token'],
  'w.launch_parallelism_unsupported': ['', 'ms-swift sft、LLaMA-Factory 和 DeepSpeed ZeRO 只支持数据并行：无法表达 tp {0} 和 pp {1}，且 DeepSpeed 会按全部 {2} 张 GPU 校验 train_batch_size；张量/流水线并行训练请用 Megatron-SWIFT（megatron sft）'],
};

const LOCALES = { en: 'en-US', zh: 'zh-CN' };
let lang = 'en';

export const getLang = () => lang;

// The stored choice, else the browser's language: any zh-* reads Simplified Chinese.
export function initLang(fromLink) {
  const chosen = fromLink ?? load('lang', null) ?? (navigator.language.toLowerCase().startsWith('zh') ? 'zh' : 'en');
  lang = Object.hasOwn(LOCALES, chosen) ? chosen : 'en';  // not `in`: "constructor" is in every object
  document.documentElement.lang = LOCALES[lang];
}

export function setLang(next) {
  lang = next;
  save('lang', next);
  document.documentElement.lang = LOCALES[lang];
}

export const has = (key) => Boolean(STRINGS[key]?.[lang === 'zh' ? 1 : 0]);

export function t(key, vars = {}) {
  const pair = STRINGS[key];
  const text = pair ? pair[lang === 'zh' ? 1 : 0] || pair[0] : key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ''));
}

// A core warning {code, message} in the page's language: the core's English text where the page
// has no string for the code (English, or a code newer than the page). The details carry no
// figures, so a translation takes the English text's numbers in order as {0}, {1}, ... (the codes
// whose text starts with a GPU name, whose digits would count, use {gpu} alone).
export function warning(w, gpu) {
  return has(`w.${w.code}`) ? t(`w.${w.code}`, { ...w.message.match(/\d+(\.\d+)?/g), gpu }) : w.message;
}

const formatters = new Map();
function nf(options) {
  const id = lang + JSON.stringify(options);
  if (!formatters.has(id)) formatters.set(id, new Intl.NumberFormat(LOCALES[lang], options));
  return formatters.get(id);
}

const GIB = 2 ** 30;
export const fixed = (n, digits) => nf({ minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
export const gib = (bytes) => `${fixed(bytes / GIB, 2)} GiB`;
export const int = (n) => nf({ maximumFractionDigits: 0 }).format(n);
// 8.03B in English, 80.3亿 in Chinese: each reader's own grouping of large numbers. By hand, as
// Intl's compact notation costs some 50 ms to set up, a tenth of the page's first render.
const STEPS = {
  en: [[1e12, 'T'], [1e9, 'B'], [1e6, 'M'], [1e3, 'K']],
  zh: [[1e12, '万亿'], [1e8, '亿'], [1e4, '万']],
};
export function compact(n) {
  const [size, suffix] = STEPS[lang].find(([step]) => Math.abs(n) >= step) ?? [1, ''];
  return nf({ maximumSignificantDigits: 3, useGrouping: false }).format(n / size) + suffix;
}
export const percent = (share) => nf({ style: 'percent', maximumFractionDigits: 0 }).format(share);
export const money = (value, currency) =>
  nf({ style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: value < 1 ? 4 : 2 }).format(value);
export const rate = (tokensPerS) => `${int(tokensPerS)} tokens/s`;
export const hours = (h) => `${fixed(h, h < 10 ? 2 : h < 100 ? 1 : 0)} ${lang === 'zh' ? '小时' : 'h'}`;
export const seconds = (s) => `${fixed(s, s < 10 ? 2 : 1)} s`;
export const bytesPerS = (b) => `${fixed(b / 1e12, 2)} TB/s`;
export const kib = (bytes) => `${fixed(bytes / 1024, bytes % 1024 ? 1 : 0)} KiB`;
