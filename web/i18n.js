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
  'r.zero3': ['ZeRO-3 (shard the parameters over the GPUs)', 'ZeRO-3（参数分片到各 GPU）'],
  'r.zero3_offload': ['ZeRO-3 with CPU offload of optimizer and parameters', 'ZeRO-3 并将优化器与参数卸载到 CPU'],
  'r.kv_fp8': ['fp8 KV cache', 'fp8 KV 缓存'],
  'r.awq_int4': ['AWQ int4 weights', 'AWQ int4 权重'],
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
  'why.object': ['must be a JSON object', '应为 JSON 对象'],

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


  // Units, the summary line and the speed labels.
  gbOf: ['{gb} GB', '{gb} GB'],
  'a.gb': ['GB = 10⁹ bytes, as vendors label cards (“24 GB”); GiB = 2³⁰ bytes, as CUDA and nvidia-smi (MiB) count.',
    'GB = 10⁹ 字节，厂商标称显存用它（“24 GB”）；GiB = 2³⁰ 字节，CUDA 与 nvidia-smi（MiB）按它计。'],
  layoutOne: ['1 GPU', '1 张 GPU'],
  layoutMany: ['{n} GPUs', '{n} 张 GPU'],
  ttftOne: ['Time to first token (one request)', '首 token 延迟（单个请求）'],
  ttftBatch: ['Time to first token (last of a batch of {n} arriving together)', '首 token 延迟（{n} 个请求同时到达，最后一个）'],
  // The serving curve: the core's throughput.curve.
  curve: ['As concurrency grows', '随并发增长'],
  curveHint: ['Requests arriving together and decoding together, each with this prompt and output length, up to what the KV cache holds. Time to first token: the mean over those requests, their prompts prefilled in turn.',
    '同时到达并一起解码的请求数，每个请求的输入与输出长度同上，直到 KV 缓存放满为止。首 token 延迟：这些请求的平均值（提示词依次预填充）。'],
  'col.concurrency': ['Concurrent requests', '并发请求数'],
  'col.ttft': ['Time to first token', '首 token 延迟'],
  'col.tpot': ['Time per output token', '每个输出 token 耗时'],
  'col.outRate': ['Output tokens/s', '输出 token/s'],
  // Errors: one message at the input, results kept but marked stale.
  staleNote: ['These results are for the last valid input: fix the marked field to update them.',
    '以下结果对应上一次有效输入：请先修正标出的输入项。'],
  fieldConfig: ['config.json: {key}', 'config.json：{key}'],
  fixToSee: ['The results appear once the marked field is fixed.', '修正标出的输入项后即显示结果。'],
  embedNone: ['Fits on none of the {of} GPU types at this size: see what it takes in the full calculator.',
    '{of} 款 GPU 单卡都放不下：请在完整计算器中查看所需配置。'],
  dateUnknown: ['date not stated', '未注明日期'],
  // Core errors by code (errorMessage). An English half left '' is the core's own message word for
  // word: the English page shows the error's `message`, as for warnings and notes. The others are
  // the page's wording of it: no CLI pointers, the page's terms and lists (tests/wasm/messages.test.mjs).
  'e.null': ['', '不能为 null：不需要时删去该项即取默认值'],
  'e.integer_range': ['must be a whole number from {min} to {max}', '应为 {min} 到 {max} 之间的整数'],
  'e.number_range': ['must be a number from {min} to {max}', '应为 {min} 到 {max} 之间的数'],
  'e.number_above': ['must be a number above {min}, at most {max}', '应大于 {min} 且不超过 {max}'],
  'e.got': [' (got {value})', '（当前为 {value}）'],
  'e.boolean': ['must be true or false', '应为 true 或 false'],
  'e.string': ['must be text', '应为文本'],
  'e.choice': ['must be one of {choices} (got {value})', '应为以下之一：{choices}（当前为 {value}）'],
  'e.string_list': ['must be a list of names', '应为名称列表'],
  'e.unknown_key': ['unknown key', '未知参数'],
  'e.object': ['must be a JSON object', '应为 JSON 对象'],
  'e.unknown_gpu': ['unknown GPU “{id}”', '未知的 GPU 型号“{id}”'],
  'e.unknown_provider': ['unknown provider “{id}”', '未知的云厂商“{id}”'],
  'e.unknown_model': ['no model is called “{name}”', '没有名为“{name}”的模型'],
  'e.suggest': ['; did you mean {list}?', '；你要找的是不是 {list}？'],
  'e.tokens_sum': ['prompt and output tokens must add up to the context ({prompt_tokens} + {output_tokens} ≠ {seq_len})',
    '输入与输出 token 数之和应等于上下文长度（{prompt_tokens} + {output_tokens} ≠ {seq_len}）'],
  'e.exceeds_seq_len': ['must not exceed the context ({seq_len} tokens)', '不能超过上下文长度（{seq_len} token）'],
  'e.seq_len_min': ['', '至少为 1 个 token'],
  'e.model_required': ['choose a model', '请指定模型'],
  'e.engine_serving': ['{engine} serves models; for training choose {list}', '{engine} 是推理框架；训练请选 {list}'],
  'e.engine_training': ['{engine} is a training engine; for serving choose {list}', '{engine} 是训练框架；推理请选 {list}'],
  'e.tp_pp_divide_gpus': ['TP × PP ({tp} × {pp}) must divide the GPUs in total ({gpus})', 'TP × PP（{tp} × {pp}）必须整除 GPU 总数（{gpus}）'],
  'e.tp_heads': ['', '必须整除注意力头数（{heads}）'],
  'e.pp_layers': ['', '不能超过模型层数（{layers}）'],
  'e.qlora_weights': ['QLoRA trains adapters over a 4-bit base: use nf4 (or another 4-bit format), not {weights}',
    'QLoRA 在 4 比特底座上训练适配器：请用 nf4（或其他 4 比特格式），而不是 {weights}'],
  'e.gguf_training': ['GGUF formats are for llama.cpp serving, not training', 'GGUF 格式只用于 llama.cpp 推理，不能训练'],
  'e.full_weights': ['full fine-tuning and pre-training update every weight in 16 or 32 bits: use bf16, fp16 or fp32, not {weights}',
    '全参微调与预训练以 16 或 32 位更新全部权重：请用 bf16、fp16 或 fp32，而不是 {weights}（量化底座请用 LoRA 或 QLoRA）'],
  'e.gguf_engine': ['GGUF formats run on llama.cpp, not {engine}', 'GGUF 格式需用 llama.cpp 运行，而不是 {engine}'],
  'e.offload_needs_zero': ['CPU offload needs ZeRO: the optimizer needs stage 1-3, the parameters stage 3',
    'CPU 卸载需要 ZeRO：卸载优化器需 1-3 阶段，卸载参数需 3 阶段'],
  'e.offload_params_zero3': ['', '参数卸载需要 ZeRO-3'],
  'e.encoder_generates': ['', '编码器模型不生成 token'],
  'e.load_training': ['a load applies to serving, not to training', '负载只适用于推理部署，不适用于训练'],
  'e.load_rate_required': ['give the requests per second to carry, above 0', '请填写要承载的每秒请求数（大于 0）'],
  'e.kv_heads_divide': ['the attention heads ({heads}) must be divisible by the KV heads ({kv_heads})',
    '注意力头数（{heads}）必须能被 KV 头数（{kv_heads}）整除'],
  'e.required': ['is required', '必填'],
  'e.config_missing': ['', 'config.json 中缺少此项'],
  'e.below_one': ['', '必须小于 1'],
  'e.group_size_zero': ['', '应为正数，或 -1（每列一组）'],
  'e.no_fitting_plan': ['no catalog plan fits this scenario: relax the filters', '目录中没有放得下该场景的方案：请放宽筛选条件'],
  'e.no_plan_for_instance': ['no plan for instance type “{instance}”', '实例类型“{instance}”没有可用方案（未知、被筛选掉或不是按需计费）'],
  'e.catalog_instance_name': ['“{name}” is a catalog instance type: give yours another name', '“{name}”是目录中的实例类型：请给你的实例另起名字（或在价格表中修改它的价格）'],
  'e.duplicate_instance_name': ['“{name}” is already one of your instances', '“{name}”已是你的自定义实例'],
  'e.date': ['', '应为 YYYY-MM-DD 格式的日期'],
  'e.model_type': ['must be a preset id or an object', '应为预设模型 ID 或对象'],
  'e.model_one_key': ['', '含“{key}”的对象不能再有其他键'],
  'e.tokens_alone': ['give the context length (or the other token count) with it', '请同时给出上下文长度（或另一项 token 数）'],
  'e.schema': ['', '必须为 1'],
  'e.instance_list': ['must be a list of instance objects', '应为实例对象的列表'],
  'e.load_with_gpus': ['the load sets the GPU count through its replicas: give either the GPU count or the load', '负载会通过副本数决定 GPU 数量：GPU 总数与负载只能二选一'],
  'e.json_depth': ['', 'JSON 嵌套超过 {max} 层'],
  'e.input_empty': ['', '为空：应为场景的 JSON 对象'],
  'e.nul_byte': ['', '在第 {offset} 字节处含 NUL 字符：JSON 文本中不应有'],
  'e.invalid_json': ['is not valid JSON', '不是有效的 JSON'],
  'e.number_overflow': ['has a number beyond the range of a double', '含有超出双精度浮点范围的数'],
  'e.unknown_command': ['', '未知命令“{command}”'],
  'e.params_range': ['', '参数量应大于 0 且不超过 1e15'],
  'e.params_no_shape': ['no Llama-like shape comes within 1 % of this count: give explicit fields',
    '找不到参数量与之相差 1% 以内的 Llama 式结构：请给出具体结构参数'],
  'e.head_dim_required': ['', 'hidden 不能被注意力头数整除时必填'],
  'e.intermediate_required': ['',
    '必填（只有全部为 MoE 层且给出 expert_intermediate 的模型可省略）'],
  'e.layer_indices': ['must be a list of layer indices from 0 to {max}', '应为 0 到 {max} 之间的层编号列表'],
  'e.experts_zero': ['',
    '为 0：MoE 配置至少需要 1 个专家（稠密模型不写此项）'],
  'e.experts_per_token': ['', '大于专家总数（{experts}）'],
  'e.layer_kinds_count': ['', '应为每一层列出一种注意力类型（共 {layers} 层）'],
  'e.layer_kinds_values': ['', '只能含字符串（当前为 {value}）'],
  'e.minimax_layer_kinds': ['',
    'config.json 中缺少此项：MiniMax 需要每层的注意力类型（0 = lightning，1 = softmax），或给出 layer_types'],
  'e.intermediate_even': ['', '必须为偶数（QWenMLP 会将其减半）'],
  'e.vision_config_unknown': ['is not counted for model type “{model_type}”: remove it to size the language model alone',
    '模型类型“{model_type}”的视觉部分无法计入：删去此项，只计算语言模型'],
  'e.head_dim_missing': ['',
    'config.json 中缺少此项，且隐藏维度（{hidden}）不能被注意力头数（{heads}）整除'],
  'e.plan_gpu_required': ['is required (a catalog GPU id) unless an instance type is given', '未指定实例类型时必填（目录中的 GPU ID）'],
  'e.name_too_long': ['', '长度为 {length} 个字符：模型名称最长 {max} 个字符'],
  'e.model_name_empty': ['', '为空：请填写模型名称或 Hub ID'],
  'e.size_range': ['', '应为 {min} 到 {max} 之间的整数（当前为 {value}）'],
  'e.config_kv_heads_divide': ['', '注意力头数 {key}（{heads}）不能被此项（{kv_heads}）整除'],
  'e.minimax_kind_numbers': ['', '只能含 0（lightning）或 1（softmax）（当前为 {value}）'],
  'e.minimax_kind_names': ['', '只能含 "linear_attention" 或 "full_attention"（当前为 {value}）'],
  'e.aliases_list': ['', '应为名称列表'],
  'e.aliases_names': ['', '应为非空字符串（当前为 {value}）'],
  'e.table_input': ['must be a JSON object', '应为 JSON 对象（models、columns、context、pricing、filters）'],
  'e.table_key': ['', '不是速查表的参数（models、columns、context、pricing、filters、headroom、efficiency）'],
  'e.table_object': ['must be a JSON object', '应为 JSON 对象'],
  'e.context_key': ['', '不是共享设置（只有 seq_len、training.tokens）'],
  'e.context_training_key': ['', '不是共享设置（只有 tokens）'],
  'e.unknown_column_id': ['', '未知的列 {id}（{columns}）'],
  'e.column_overrides': ['', '应为场景参数组成的对象'],
  'e.column_training_key': ['', '不是训练设置'],
  'e.plan_unknown_gpu': ['', '未知的 GPU 型号“{id}”'],
  'e.plan_instance_string': ['', '应为字符串（实例类型）'],
  'e.instance_name_required': ['', '必填：实例类型的名称'],
  'e.instance_gpu_required': ['is required: a GPU type of the catalog', '必填：目录中的 GPU 型号'],
  'e.instance_gpus_required': ['', '必填：1 到 64 之间的整数'],
  'e.instance_price_required': ['', '必填：大于 0 的数'],
  'e.instance_currency_required': ['', '必填：“USD”或“CNY”'],
  'e.resolve_form': ['takes {"model": "<name>"}, a JSON string or plain text', '应为 {"model": "<名称>"}、JSON 字符串或纯文本'],
  'e.column_setting': ['',
    '不是这一列的设置项（GPU、GPU 数量、TP 与 PP 由规划器选择）'],
  'e.table_models': ['must be a non-empty list of preset ids', '应为非空的预设模型 ID 列表'],
  'e.unknown_column': ['unknown column “{id}”', '未知的列“{id}”'],
  'e.other': ['{msg}', '输入有误：{msg}'],
  'type.string': ['text', '文本'], 'type.number': ['a number', '数字'], 'type.boolean': ['true/false', '布尔值'],
  'type.null': ['null', 'null'], 'type.array': ['a list', '列表'], 'type.object': ['an object', '对象'],

  // Warnings by the core's code, worded from their values (docs/errors.md).
  'w.context_beyond_model': ['', '上下文长度 {seq_len} 超过 {model} 支持的 {positions} 个位置（max_position_embeddings）：质量下降，推理框架会拒绝，除非用 RoPE 缩放扩展'],
  'w.batch_beyond_engine': ['', '{engine} 默认同时最多运行 {max_batch} 个序列（max_num_seqs / 最大批量）：请显式调大，否则会排队'],
  'w.engine_no_tp': ['', '{engine} 不支持张量并行：无法以 TP {tp} 启动'],
  'w.engine_no_pp': ['', '{engine} 不支持流水线并行：无法以 PP {pp} 启动'],
  'w.no_rdma': ['', '该方案跨 {instances} 台实例，走 TCP（{gbps} Gbit/s，无 RDMA）：集合通信会比 InfiniBand/RoCE/EFA 慢数倍'],
  'w.slow_network': ['', 'ZeRO-{zero} 跨实例训练而实例间网络仅 {gbps} Gbit/s：低于多机 ZeRO 所需的 {min_gbps} Gbit/s'],
  'w.price_stale': ['', '{instance} 的价格取自 {date}（{months} 个月前）：请核实或自行覆盖'],
  'w.latency_target_unmet': ['', '即使每个副本只跑一个序列，{gpu} 也达不到时延目标'],
  'w.bf16_unsupported': ['', '{gpu} 不支持原生 bf16：请改用 fp16（框架会回退到 fp16，或以较慢的方式模拟 bf16）'],
  'w.format_unsupported.awq_volta': ['', 'AWQ 内核需要计算能力 7.5 及以上；{gpu}（Volta）只有 7.0'],
  'w.format_unsupported.fp8_old': ['', 'fp8 权重需要计算能力 8.0 及以上；{gpu} 更旧'],
  'w.format_unsupported.fp4_old': ['', '{weights} 权重需要计算能力 8.0 及以上（vLLM 的 Marlin 内核；Blackwell 起原生支持）；{gpu} 不支持'],
  'w.format_unsupported.nvfp4_amd': ['', 'nvfp4 是 NVIDIA 的格式，AMD 没有对应内核（请用 mxfp4 或 fp8）；{gpu} 无法运行'],
  'w.fp8_unsupported': ['', '{gpu} 没有 FP8 张量核心（Ada、Hopper 及之后的架构才有）：fp8 只能以仅权重反量化方式运行，或无法运行'],
  'w.params_only_model': ['', '模型结构仅由参数量推算；请选择预设或提供 config.json，以精确计算 KV 缓存和激活值'],
  'w.zero_with_pipeline': ['', 'DeepSpeed 不支持流水线并行与 ZeRO-2/3 同时使用；PP > 1 时请用 ZeRO-1'],
  'w.megatron_zero': ['', 'Megatron-LM 只切分优化器状态（分布式优化器）：按 ZeRO-1 计算'],
  'w.zero_without_dp': ['', 'ZeRO 在数据并行进程间切分；只有一个进程（GPU 数 / (TP × PP) = 1）时不节省显存'],
  'w.paged_optimizer_spill': ['', '分页优化器状态与其余部分一起放不下，会换页到主机内存（训练步变慢）'],
  'w.launch_fp16': ['', '{gpu} 不支持 bf16：命令改用 float16（推理 --dtype float16；训练用 fp16 混合精度和动态损失缩放，可能在 bf16 不会溢出时溢出）'],
  'w.launch_does_not_fit': ['', '估算每卡需要 {per_gpu_bytes}，超过 {gpu} 的 {memory_bytes}：按这些命令运行会显存不足'],
  'w.launch_sglang_memory': ['', '--mem-fraction-static {fraction} 留下的显存少于估算的激活值和运行时缓冲区：请调低 --max-running-requests 或 --context-length'],
  'w.launch_fraction_capped': ['', '估算需要每张卡 {cap} 以上的显存：显存占比上限为 {cap}，KV 缓存可能装不下 batch × seq_len 个 token'],
  'w.launch_parallelism_unsupported': ['', 'ms-swift sft、LLaMA-Factory 和 DeepSpeed ZeRO 只支持数据并行：无法表达 TP {tp} 与 PP {pp}，且 DeepSpeed 会按全部 {gpus} 张 GPU 校验 train_batch_size；张量/流水线并行训练请用 Megatron-SWIFT（megatron sft）。此方案不生成命令'],
  'w.launch_plan_invalid': ['', '{why}。此方案不生成命令'],
  'w.launch_kv_short': ['', '{setting} 留下的 KV 缓存只够 {sequences} 个 {seq_len} token 的序列，少于批量 {batch}：框架会让其余请求排队（不足一个时无法启动）'],
  'w.unknown_override': ['', '没有名为“{instance}”的目录或自定义实例类型：该价格未被使用'],
  'w.model_name_resolved': ['', '“{name}”被识别为预设“{preset}”{weightsNote}'],
  'w.weightsNote': ['', '（{weights} 权重）'],
  // Why a plan cannot launch (launch_blocker codes).
  'why.training_data_parallel': ['', '训练命令（ms-swift sft、LLaMA-Factory、DeepSpeed ZeRO）只支持数据并行'],
  'why.uneven_nodes': ['', '{gpus} 张 GPU 无法均分到 {instances} 个节点：torchrun/DeepSpeed/Ray 作业的每个节点运行相同数量的进程'],
  'why.no_tp': ['', '{engine} 不支持张量并行：无法以 TP {tp} 启动'],
  'why.no_pp': ['', '{engine} 不支持流水线并行：无法以 PP {pp} 启动'],
  'why.single_machine': ['', '{engine} 只在一台机器上运行一个模型实例：无法启动跨 {instances} 个节点的方案'],
  'why.no_zero': ['', '{engine} 不切分模型状态：无法以 ZeRO-{zero} 启动'],
  'why.engine_format': ['', '{engine} 无法加载 {weights} 权重'],
  'why.replicas_across_nodes': ['', '数据并行副本分布在多个节点上：请每个副本单独启动一个服务（不为此生成命令）'],

  // Launch notes by code (launch note_details), worded from their values.
  'n.path_model': ['', '/path/to/model 代表模型的检查点（导入的模型没有 Hugging Face ID）'],
  'n.nodes_assumed': ['', '假定 {gpus} 张 GPU 为 {instances} 个节点、每节点 {per_instance} 张；用 plan.gpus_per_instance 可修改'],
  'n.cheapest_not_launchable': ['', '最便宜的方案 {instance}（{gpus} 张 GPU，TP {tp}，PP {pp}，{instances} 台实例）无法启动：{why}；以下命令对应可以启动的最便宜方案'],
  'n.vllm_utilization': ['', '--gpu-memory-utilization 设为 {value}，而非 vLLM 默认的 0.90：估算需要每张卡的 {needed}（权重、激活值、运行时，以及 {batch} × {seq_len} token 的 KV 缓存）'],
  'n.kv_capacity': ['', '{engine}：{setting} 在每张 GPU 上留出 {budget_bytes} KV 缓存，可并发 {sequences} 个 {seq_len} token 的序列{perReplica}；场景要求 {batch} 个（估算：每个序列在每张 GPU 上占 {per_sequence_bytes} KV 缓存）'],
  'n.perReplica': ['', '（每个副本；{replicas} 个副本共 {total} 个）'],
  'n.marlin': ['', '--quantization {quantization}：vLLM 0.11 在计算能力 ≥ 8.0 的卡（{gpu}）上为此检查点运行 Marlin 内核；显式指定 {slower} 会强制使用较慢的内核'],
  'n.no_marlin.cuda': ['', '--quantization {quantization}：vLLM 0.11 在 {gpu} 上没有 Marlin 内核（计算能力低于 8.0）'],
  'n.no_marlin.rocm': ['', '--quantization {quantization}：vLLM 0.11 在 {gpu} 上没有 Marlin 内核（非 CUDA 卡；ROCm 通过 Triton 运行 AWQ，需设 VLLM_USE_TRITON_AWQ=1）'],
  'n.vllm_ray': ['', 'vLLM 跨 {nodes} 个节点：先在这些节点上启动 Ray 集群（见 vLLM 分布式部署指南），再在头节点运行 vllm serve'],
  'n.max_num_seqs_per_replica': ['', '--max-num-seqs 按每个数据并行副本计：{replicas} 个副本同时服务 {sequences} 个序列'],
  'n.kv_format_vllm': ['', 'KV 缓存 {kv_cache} 无法表达：vLLM 0.11 只提供 auto、bfloat16 和 fp8 系列；缓存保持 16 位（上面的容量按 16 位计）'],
  'n.swift_one_node': ['', 'swift deploy 只在一个节点上运行：多节点方案请用 vllm serve 命令'],
  'n.swift_no_quant_flag': ['', 'swift deploy：ms-swift 3.9 没有文档化的在线量化或 vLLM 后端 KV 缓存精度参数；请改用 vllm serve 命令'],
  'n.sglang_nodes': ['', 'SGLang：在全部 {nodes} 个节点上运行该命令，NODE_RANK 依次设为 0、1、…，MASTER_ADDR 设为 0 号节点的地址'],
  'n.kv_format_sglang': ['', 'KV 缓存 {kv_cache} 无法表达：SGLang 0.5 只提供 auto 和 fp8；缓存保持 16 位（上面的容量按 16 位计）'],
  'n.transformers_replicas': ['', 'transformers 每个进程服务一个副本：运行 {replicas} 个 swift deploy 进程，各自设置 CUDA_VISIBLE_DEVICES 和 --port，前面加负载均衡'],
  'n.bnb_pt': ['', 'pt 后端上的 4 比特 bitsandbytes：加上 --quant_method bnb --quant_bits 4'],
  'n.publisher_checkpoint': ['', '--model {repo}：发布方提供的 Instruct 模型 {weights} 检查点（预设的仓库 {preset_repo} 存的是 16 位权重）'],
  'n.quantized_checkpoint': ['', '--model 须指向已用 {weights} 量化好的检查点（gpusizer 的表中没有该模型的此类检查点）；AWQ/GPTQ 以 --dtype float16 运行'],
  'n.int8_checkpoint': ['', 'int8 权重：不指定 --quantization；请加载预先量化的 INT8 检查点（如 compressed-tensors W8A8），框架会从其 config.json 读取量化方法'],
  'n.instances_independent': ['', '该方案的 {instances} 台实例各自独立服务：在每台上运行该命令（{instances} 台 × {per_instance} 个副本 = {replicas} 个副本），并在它们之间做负载均衡；实例之间没有通信'],
  'n.replica_per_server': ['', '{engine} 每个服务进程一个副本：该命令在 GPU 0-{last_gpu} 上启动一个；另外再启动 {more} 个，各自设置 CUDA_VISIBLE_DEVICES 和端口，前面加负载均衡'],
  'n.lmdeploy_cache_share': ['', '--cache-max-entry-count 设为 {value}，而非 LMDeploy 默认的 0.8：{batch} × {seq_len} token 的 KV 缓存需要加载权重后剩余显存的 {needed}'],
  'n.kv_format_lmdeploy': ['', 'KV 缓存 fp8 无法表达：LMDeploy 0.10.2 只能把 KV 缓存量化为 int8 或 int4（--quant-policy 8|4）；缓存保持 16 位'],
  'n.lmdeploy_tp_pow2': ['', 'LMDeploy 的 --tp 说明要求为 2 的幂；TP {tp} 可能被拒绝'],
  'n.trtllm_kv_share': ['', '--kv_cache_free_gpu_memory_fraction 设为 {value}，而非 TensorRT-LLM 默认的 0.90：{batch} × {seq_len} token 的 KV 缓存需要权重与缓冲区之外剩余显存的 {needed}'],
  'n.kv_format_trtllm': ['', 'KV 缓存 {kv_cache} 无法用 trtllm-serve 的 PyTorch 后端表达（fp8 可以，通过 kv_cache_config.dtype）；缓存保持 16 位'],
  'n.trtllm_chunked_prefill': ['', '超过 --max_num_tokens 8192 的提示词需要分块预填充：在 --extra_llm_api_options 的 YAML 中设 enable_chunked_prefill: true（估算按 8192 token 的预填充块计）'],
  'n.trtllm_modelopt': ['', 'TensorRT-LLM 从 NVIDIA Model Optimizer 量化好的检查点加载 {weights} 权重（其量化方案：FP8、W4A16/W4A8 AWQ 与 GPTQ、NVFP4）；加载时不做量化'],
  'n.trtllm_mpi': ['', 'TensorRT-LLM 跨 {nodes} 个节点作为一个 MPI 作业运行：用 mpirun 或 Slurm srun 配合 trtllm-llmapi-launch 启动 trtllm-serve（见 TensorRT-LLM 多节点部署指南）'],
  'n.llamacpp_context': ['', 'llama-server：-c {context} 是总上下文，分给 -np {slots} 个槽位，每个 {seq_len} token；按估算其 KV 缓存在负载最重的 GPU 上为 {kv_bytes}'],
  'n.gguf_path': ['', '{file} 代表 {repo} 的 {weights} GGUF 文件{converted}'],
  'n.gguf_converted': ['', '（convert_hf_to_gguf.py 生成 16 位 GGUF 文件）'],
  'n.thisModel': ['', '该模型'],
  'n.kv_format_llamacpp': ['', 'KV 缓存 fp8 无法表达：llama.cpp 只缓存 f16、bf16、q8_0 或 q4_0；命令使用 f16'],
  'n.llamacpp_fa': ['', '虽然场景关闭了 FlashAttention，仍使用 -fa on：llama.cpp 只有开启 FlashAttention 才能量化 V 缓存'],
  'n.llamacpp_split': ['', '--split-mode layer 把连续的层放到 {pp} 张 GPU 上（即方案的流水线阶段）'],
  'n.global_batch': ['', '全局批量 = 每卡 {batch} × 累积 {grad_accum} 步 × {dp} 个数据并行进程 = {global} 个样本，每个最长 {seq_len} token'],
  'n.pure_16bit': ['', '纯 16 位训练（training.master_weights 为 false）无法表达：HF Trainer 与 DeepSpeed 会保留 fp32 主权重副本，显存多于估算'],
  'n.selective_checkpointing': ['', 'ms-swift 和 LLaMA-Factory 无法表达选择性重计算：命令对每一层都做检查点'],
  'n.lora_module_names': ['', 'LoRA 模块名取自 Llama/Qwen 检查点（q_proj、v_proj、…）；其他模型家族的命名不同'],
  'n.qlora_gptq': ['', '在 GPTQ/AWQ 检查点上做 QLoRA：把 --model 指向该检查点即可，无需 bitsandbytes 参数'],
  'n.bnb_zero3': ['', 'LLaMA-Factory 会为 ZeRO-3 自行设置 4 比特存储类型；ms-swift 则需 --bnb_4bit_quant_storage'],
  'n.fsdp_as_zero': ['', '框架为 FSDP：命令改用 DeepSpeed ZeRO-{zero}（FSDP FULL_SHARD 对应 ZeRO-3）'],
  'n.megatron_as_deepspeed': ['', '框架为 Megatron-LM：不生成 Megatron 命令；DeepSpeed 命令是最接近的等价方案'],
  'n.dataset_placeholders': ['', '/path/to/train.jsonl、my_dataset 和 template default 是占位符：请填入你的数据集和模型的对话模板'],
  'n.train_py': ['', 'train.py 代表你自己的、接受 --deepspeed 的 Hugging Face Trainer 脚本；ms-swift 和 LLaMA-Factory 自带启动脚本'],
  'n.node_rank': ['', '在每个节点上设置 NODE_RANK（0 到 {last_rank}）和 MASTER_ADDR（0 号节点的地址）；deepspeed 的 hostfile 每个节点一行：<address> slots={slots}'],

  // Why a plan, a GPU type or a table cell does not fit (reason_code with the plan's figures).
  'rs.too_large': ['', '在 {layout} 下每卡需要 {need}；{gpu} 可用 {cap}（预留 {headroom}）'],
  'rs.too_large_takes': ['', '即使用 {layout}，每卡仍需 {need}；可用 {cap}'],
  'rs.span.no_cluster': ['', '；不规划跨多台 {instance} 的布局（云厂商没有为它提供集群网络）'],
  'rs.span.slow_network': ['', '；不规划跨多台 {instance} 的布局（其 {network_gbps} Gbit/s 网络低于跨实例所需的 100 Gbit/s）'],
  'rs.span.single_machine': ['', '；不规划跨多台 {instance} 的布局（{engine} 只在一台机器上运行）'],
  'rs.max_gpus': ['', '；最多 GPU 数为 {max_gpus}'],
  'rs.no_layout': ['', '没有能在 {instance} 上运行的布局（每实例 {per_instance} 张 GPU{cluster}；{engine}{single}）'],
  'rs.no_cluster': ['', '，无集群网络'],
  'rs.single': ['', ' 只在一台机器上运行'],
  'rs.no_layout_takes': ['', '在最多 GPU 数以内没有可行布局'],
  'rs.no_instance': ['', '没有实例通过筛选条件'],
  'rs.none_fits': ['', '没有放得下的实例；最接近的：{closest}'],
  layoutText: ['TP {tp}, PP {pp}{zero} on {gpus} GPUs', 'TP {tp}、PP {pp}{zero}、{gpus} 张 GPU'],
};

const LOCALES = { en: 'en-US', zh: 'zh-CN' };
let lang = 'en';

export const getLang = () => lang;

// The link's lang=, else the stored choice (unless `stored` is false), else the browser's language:
// any zh-* reads Simplified Chinese.
export function initLang(fromLink, stored = true) {
  const chosen = fromLink ?? (stored ? load('lang', null) : null) ?? (navigator.language.toLowerCase().startsWith('zh') ? 'zh' : 'en');
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
export const millis = (s) => `${fixed(s * 1000, s < 0.1 ? 1 : 0)} ms`;
export const bytesPerS = (b) => `${fixed(b / 1e12, 2)} TB/s`;
export const kib = (bytes) => `${fixed(bytes / 1024, bytes % 1024 ? 1 : 0)} KiB`;
export const gb = (bytes) => `${fixed(bytes / 1e9, 1)} GB`;
// Both units side by side where a reader compares with a label ("24 GB") or with nvidia-smi (MiB).
export const gibGb = (bytes) => `${gib(bytes)} (${gb(bytes)})`;

// In Chinese the page prices in yuan unless the scenario says otherwise.
export const defaultCurrency = () => (lang === 'zh' ? 'CNY' : 'USD');

// Brand names: the same in both languages.
const ENGINE_NAMES = {
  vllm: 'vLLM', sglang: 'SGLang', lmdeploy: 'LMDeploy', 'tensorrt-llm': 'TensorRT-LLM',
  transformers: 'Transformers', 'llama.cpp': 'llama.cpp', deepspeed: 'DeepSpeed',
  fsdp: 'PyTorch FSDP', megatron: 'Megatron-LM',
};
export const engineName = (id) => ENGINE_NAMES[id] ?? String(id);

// Cloud providers by the catalog's name (two AWS offers share an id), else by id; English keeps the
// catalog's own names.
const PROVIDERS_ZH = {
  'Alibaba Cloud ECS': '阿里云 ECS', 'Tencent Cloud CVM': '腾讯云 CVM', 'Huawei Cloud ECS': '华为云 ECS',
  'Microsoft Azure': '微软 Azure', 'Google Cloud': '谷歌云', 'AWS EC2': 'AWS EC2',
  'AWS EC2 Capacity Blocks': 'AWS EC2 容量块', 'Baidu AI Cloud': '百度智能云', 'Volcano Engine': '火山引擎',
};
const PROVIDER_IDS_ZH = { alibaba: '阿里云', tencent: '腾讯云', huawei: '华为云', baidu: '百度智能云',
  volcengine: '火山引擎', azure: '微软 Azure', gcp: '谷歌云', aws: 'AWS', lambda: 'Lambda', runpod: 'RunPod' };
export const providerName = (id, name) =>
  (lang === 'zh' ? PROVIDERS_ZH[name] ?? PROVIDER_IDS_ZH[id] ?? name ?? id : name ?? id);

// A value of a core message, worded for the page: sizes in GiB, counts grouped, engines by name.
function formatValue(key, v) {
  if (Array.isArray(v)) return v.map((x) => formatValue(key, x)).join(lang === 'zh' ? '、' : ', ');
  if (typeof v === 'number') {
    if (/bytes$/.test(key)) return gib(v);
    if (key === 'headroom') return percent(v);
    if (key === 'min' || key === 'max' || key === 'value') return String(v);
    return Number.isInteger(v) ? int(v) : fixed(v, 2);
  }
  if (key === 'engine') return engineName(v);
  if (v && typeof v === 'object') return JSON.stringify(v);
  return String(v ?? '');
}
const formatValues = (values = {}) =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, formatValue(k, v)]));

// A core field path as a reader knows it: the input's own label, config.json's key, else the path.
export function fieldName(field = '', task = undefined) {
  const path = field.replace(/^\[\d+\]\./, '');
  if (task && has(`f.${path}.${task}`)) return t(`f.${path}.${task}`);
  const config = path.match(/^model\.hf_config\.(.+)$/);
  if (config) return t('fieldConfig', { key: config[1] });
  if (path === 'model.hf_config') return 'config.json';
  if (path === 'model' || path === 'model.params') return t(path === 'model' ? 'sec.model' : 'f.params');
  if (has(`f.${path}`)) return t(`f.${path}`);
  return path.replace(/^model\./, '');
}

// A core error {field, message, code, values} in the page's language, without its field (for the
// line under the input it concerns). In English, a code without the page's own wording shows the
// core's text; in Chinese, a code the page does not know yet shows that text, marked as the core's.
export function errorMessage(e) {
  const v = e.values ?? {};
  switch (e.code) {
    case 'integer_range':
    case 'number_range': {
      const base = t(e.code === 'number_range' && v.above ? 'e.number_above' : `e.${e.code}`, { min: v.min, max: v.max });
      return base + ('value' in v ? t('e.got', { value: JSON.stringify(v.value) }) : '');
    }
    case 'choice':
      return t('e.choice', { choices: (v.choices ?? []).join(lang === 'zh' ? '、' : ', '), value: JSON.stringify(v.value ?? '') });
    case 'unknown_model':
      return t('e.unknown_model', { name: v.name }) + (v.suggestions?.length ? t('e.suggest', { list: v.suggestions.join(lang === 'zh' ? '、' : ', ') }) : '');
    case 'engine_serving':
    case 'engine_training':
      return t(`e.${e.code}`, { engine: engineName(v.engine),
        list: (e.code === 'engine_serving' ? TRAINING_ENGINES : SERVING_ENGINES).map(engineName).join(lang === 'zh' ? '、' : ', ') });
    default:
      if (e.code && has(`e.${e.code}`)) return t(`e.${e.code}`, formatValues(v));
      return lang === 'zh' ? t('e.other', { msg: e.message }) : e.message;
  }
}
// The engine lists of the two messages above, from the core's catalog (setEngines at start-up).
let SERVING_ENGINES = [];
let TRAINING_ENGINES = [];
export function setEngines(engines) {
  SERVING_ENGINES = engines?.inference ?? [];
  TRAINING_ENGINES = engines?.training ?? [];
}

// The error with its field, for a place that is not the input itself.
export const errorText = (e) => t('inputError', { field: fieldName(e.field), msg: errorMessage(e) });

// A core warning {code, field, message, values} in the page's language.
export function warning(w) {
  if (lang !== 'zh') return w.message;
  const v = w.values ?? {};
  const key = w.code === 'format_unsupported' ? `w.format_unsupported.${v.kind}` : `w.${w.code}`;
  if (!has(key)) return t('e.other', { msg: w.message });
  const vars = formatValues(v);
  if (w.code === 'model_name_resolved') vars.weightsNote = v.weights ? t('w.weightsNote', { weights: v.weights }) : '';
  if (w.code === 'launch_plan_invalid') vars.why = blocker(v.why, v.reason);
  return t(key, vars);
}

// Why a plan cannot be launched (launch_blocker's code and values).
function blocker(why, english) {
  if (!why?.code || !has(`why.${why.code}`)) return english ?? '';
  return t(`why.${why.code}`, formatValues(why));
}

// A launch note {code, message, values} in the page's language.
export function note(n) {
  if (lang !== 'zh') return n.message;
  const v = n.values ?? {};
  const vars = formatValues(v);
  let key = `n.${n.code}`;
  if (n.code === 'kv_capacity') {
    vars.perReplica = v.replicas > 1 ? t('n.perReplica', { replicas: int(v.replicas), total: int(v.sequences * v.replicas) }) : '';
  } else if (n.code === 'no_marlin') {
    key = `n.no_marlin.${v.cuda ? 'cuda' : 'rocm'}`;
  } else if (n.code === 'gguf_path') {
    vars.repo = v.repo || t('n.thisModel');
    vars.converted = v.converted ? t('n.gguf_converted') : '';
  } else if (n.code === 'cheapest_not_launchable') {
    vars.why = blocker(v.why, v.reason);
  }
  return has(key) ? t(key, vars) : t('e.other', { msg: n.message });
}

// Why a plan (rank), a GPU type (takes) or a table cell does not fit: {reason, reason_code,
// reason_values} with the figures of the object itself.
export function reason(x, gpuName) {
  if (!x?.reason) return null;
  if (lang !== 'zh') return x.reason;
  const v = x.reason_values ?? {};
  const layout = t('layoutText', { tp: int(x.tp), pp: int(x.pp), gpus: int(x.gpus), zero: x.zero > 0 ? `、ZeRO-${x.zero}` : '' });
  switch (x.reason_code) {
    case 'too_large': {
      if (!v.gpu) return t('rs.too_large_takes', { layout, need: gib(x.per_gpu_bytes), cap: gib(x.usable_bytes) });
      let text = t('rs.too_large', { layout, need: gib(x.per_gpu_bytes), gpu: gpuName ?? v.gpu, cap: gib(x.usable_bytes), headroom: percent(v.headroom) });
      if (v.span) text += t(`rs.span.${v.span}`, formatValues(v));
      if (v.max_gpus) text += t('rs.max_gpus', formatValues(v));
      return text;
    }
    case 'no_layout':
      if (!v.instance) return t('rs.no_layout_takes');
      return t('rs.no_layout', { ...formatValues(v), cluster: v.cluster ? '' : t('rs.no_cluster'), single: v.multi_node ? '' : t('rs.single') })
        + (v.max_gpus ? t('rs.max_gpus', formatValues(v)) : '');
    case 'format_unsupported':
      return warning({ code: 'format_unsupported', values: v, message: x.reason });
    case 'no_instance':
      return t('rs.no_instance');
    case 'none_fits':
      return t('rs.none_fits', { closest: reason(x.plan, gpuName) ?? '' });
    default:
      return t('e.other', { msg: x.reason });
  }
}

// The page's keys of a core message (the core's `messages` list gives kind and code): the wording
// of an error is e.<code>, of a warning w.<code>, of a note n.<code>, of a launch blocker
// why.<code>, of a reason rs.<code>, of a format kind w.format_unsupported.<kind>; a few codes
// have one wording per case their values tell apart.
const CASES = {
  'note no_marlin': ['n.no_marlin.cuda', 'n.no_marlin.rocm'],
  'reason too_large': ['rs.too_large', 'rs.too_large_takes'],
  'reason no_layout': ['rs.no_layout', 'rs.no_layout_takes'],
  'warning format_unsupported': [],  // worded by its kind, a format entry
};
const PREFIX = { error: 'e', warning: 'w', note: 'n', blocker: 'why', reason: 'rs', format: 'w.format_unsupported' };
export const wordingKeys = (kind, code) => CASES[`${kind} ${code}`] ?? [`${PREFIX[kind]}.${code}`];
// Keys under those prefixes that word no code of their own: parts of other wordings, and the
// link's problems (why.number, ...: state.js), which share the why. prefix.
const PIECES = new Set(['e.number_above', 'e.got', 'e.suggest', 'e.other', 'w.weightsNote', 'n.perReplica',
  'n.gguf_converted', 'n.thisModel', 'rs.span.no_cluster', 'rs.span.slow_network', 'rs.span.single_machine',
  'rs.max_gpus', 'rs.no_cluster', 'rs.single', 'why.unknown', 'why.number', 'why.whole', 'why.bool',
  'why.json', 'why.task', 'why.object']);
// "kind code" for every message wording the page has.
export function wordedCodes() {
  const out = new Set();
  const cased = Object.entries(CASES).flatMap(([id, keys]) => keys.map((k) => [k, id]));
  for (const key of Object.keys(STRINGS)) {
    if (PIECES.has(key)) continue;
    const c = cased.find(([k]) => k === key);
    if (c) { out.add(c[1]); continue; }
    const kind = Object.entries(PREFIX).sort((a, b) => b[1].length - a[1].length).find(([, p]) => key.startsWith(`${p}.`));
    if (kind) out.add(`${kind[0]} ${key.slice(kind[1].length + 1)}`);
  }
  return [...out];
}

// Whether a key has its Chinese wording (tests/wasm/messages.test.mjs checks every core code has one),
// and its English one (else the page shows the core's English).
export const hasZh = (key) => Boolean(STRINGS[key]?.[1]);
export const hasEn = (key) => Boolean(STRINGS[key]?.[0]);

// A price's source citation: in English as the catalog words it; in Chinese its short name (the
// repository and file, or the page), the English gloss after it left to docs/catalog.md.
export const sourceText = (text = '') => (lang === 'zh' ? text.split(/ \(|: | '/)[0] : text);
